/// Input checks shared by the use cases. Each throws ``DomainError/invalidInput(field:reason:)``
/// naming the offending field.
public enum Validate {
    /// The longest name (user, restaurant, menu item) or cuisine, in characters.
    public static let maximumNameLength = 100

    /// A name or cuisine: trimmed, non-empty, at most 100 characters.
    public static func name(_ raw: String, field: String) throws(DomainError) -> String {
        try text(raw, field: field, maximumLength: maximumNameLength)
    }

    /// Free text that must not be blank: trimmed, non-empty, at most `maximumLength` characters.
    public static func text(_ raw: String, field: String, maximumLength: Int) throws(DomainError) -> String {
        let trimmed = raw.trimmed
        guard !trimmed.isEmpty else {
            throw .invalidInput(field: field, reason: "must not be empty")
        }
        guard trimmed.count <= maximumLength else {
            throw .invalidInput(field: field, reason: "must be at most \(maximumLength) characters")
        }
        return trimmed
    }

    /// Optional free text: trimmed; blank becomes `nil`; at most `maximumLength` characters.
    public static func optionalText(_ raw: String?, field: String, maximumLength: Int) throws(DomainError) -> String? {
        guard let trimmed = raw?.trimmed, !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumLength else {
            throw .invalidInput(field: field, reason: "must be at most \(maximumLength) characters")
        }
        return trimmed
    }

    /// An integer within a closed range.
    public static func integer(_ value: Int, field: String, in range: ClosedRange<Int>) throws(DomainError) -> Int {
        guard range.contains(value) else {
            throw .invalidInput(field: field, reason: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    /// A finite number within a closed range.
    public static func number(_ value: Double, field: String, in range: ClosedRange<Double>) throws(DomainError) -> Double {
        guard value.isFinite, range.contains(value) else {
            throw .invalidInput(field: field, reason: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    /// A page size: 1…500, 50 when absent.
    public static func limit(_ value: Int?, field: String = "limit") throws(DomainError) -> Int {
        guard let value else { return PageRequest.defaultLimit }
        return try integer(value, field: field, in: PageRequest.limitRange)
    }
}

extension String {
    /// Whether anything but white space is in the string; unlike `trimmed.isEmpty` it allocates
    /// nothing and usually stops at the first character, which matters on read paths.
    public var hasNonWhitespace: Bool {
        // A Character is white space when its first scalar is, and no white-space scalar
        // joins a following ASCII scalar into one Character: so one printable ASCII byte
        // settles it without breaking the string into Characters (a read-path cost).
        if utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return true }
        return contains { !$0.isWhitespace }
    }

    /// The string without leading and trailing white space (spaces, tabs, newlines…).
    public var trimmed: String {
        // A first and last byte that are printable ASCII settle it without breaking the string
        // into Characters: the first Character then starts with a scalar that is not white
        // space, and so does the last (no white space joins a following ASCII scalar).
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return self
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}

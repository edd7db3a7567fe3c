/// A syntactically valid e-mail address, trimmed, as the user typed it.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The longest accepted address, in characters.
    public static let maximumLength = 254

    /// The address as given, without surrounding white space.
    public let value: String

    /// Validates `raw`: trimmed, exactly one `@`, a non-empty local part, a domain containing
    /// a dot that is not its first or last character, no white space, at most 254 characters.
    public init?(_ raw: String) {
        let candidate = raw.trimmed
        guard EmailAddress.isValid(candidate) else { return nil }
        self.value = candidate
    }

    /// Whether `candidate` (already trimmed) follows the e-mail rules.
    public static func isValid(_ candidate: String) -> Bool {
        guard !candidate.isEmpty, candidate.count <= maximumLength,
              !candidate.contains(where: \.isWhitespace) else { return false }
        let parts = candidate.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0], domain = parts[1]
        guard !local.isEmpty, domain.contains("."), domain.first != ".", domain.last != "." else { return false }
        return true
    }

    /// The key under which addresses are unique: equal for addresses that differ only in case.
    public var uniquenessKey: String { value.lowercased() }

    /// The address.
    public var description: String { value }
}

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
        if let ascii = isValidASCII(candidate) { return ascii }
        guard !candidate.isEmpty, candidate.count <= maximumLength,
              !candidate.contains(where: \.isWhitespace) else { return false }
        let parts = candidate.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0], domain = parts[1]
        guard !local.isEmpty, domain.contains("."), domain.first != ".", domain.last != "." else { return false }
        return true
    }

    /// The same rules read from the bytes when every byte is ASCII (then each byte is one
    /// Character, and a carriage return, the one pair that joins, is refused as white space
    /// anyway); `nil` otherwise. Breaking the string into Characters cost every registration
    /// a few microseconds.
    private static func isValidASCII(_ candidate: String) -> Bool? {
        var count = 0, ats = 0, localLength = 0
        var domainFirst: UInt8?, last: UInt8 = 0, domainHasDot = false
        for byte in candidate.utf8 {
            guard byte < 0x80 else { return nil }
            // Character.isWhitespace in ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
            if (0x09...0x0D).contains(byte) || byte == 0x20 { return false }
            if byte == UInt8(ascii: "@") {
                ats += 1
                localLength = count
            } else if ats == 1 {
                if domainFirst == nil { domainFirst = byte }
                if byte == UInt8(ascii: ".") { domainHasDot = true }
            }
            last = byte
            count += 1
        }
        guard count <= maximumLength, ats == 1, localLength > 0, domainHasDot else { return false }
        // The domain (after the @) neither starts nor ends with a dot.
        return domainFirst != UInt8(ascii: ".") && last != UInt8(ascii: ".")
    }

    /// The key under which addresses are unique: equal for addresses that differ only in case.
    public var uniquenessKey: String { value.lowercased() }

    /// The address.
    public var description: String { value }
}

/// Why a JSON text was refused, and where.
///
/// `offset` counts bytes from the start of the input (0-based). The `description`
/// is plain words meant for an error reply or a log line, e.g.
/// "invalid UTF-8 at byte 12".
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem the parser reports.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// The input is empty or holds only whitespace.
        case empty
        /// The input ended in the middle of a value (an unclosed string, array or object,
        /// or a cut-off literal). The offset is the input's length.
        case unexpectedEnd
        /// A byte that cannot start or continue the value at this point
        /// (including a UTF-8 byte order mark at the start).
        case unexpectedByte
        /// A complete value was followed by something other than whitespace.
        case trailingData
        /// A string holds a byte sequence that is not well-formed UTF-8 (overlong forms,
        /// UTF-8-encoded surrogates, code points above U+10FFFF, stray or missing
        /// continuation bytes). The offset is the first byte of the bad sequence.
        case invalidUTF8
        /// A string holds a raw control character (below U+0020) that must be escaped.
        case controlCharacter
        /// A backslash escape that JSON does not define, or a `\u` without four hex digits.
        /// The offset is the backslash.
        case invalidEscape
        /// A `\u` escape of a UTF-16 surrogate that is not part of a high-then-low pair.
        /// The offset is the backslash of the offending escape.
        case unpairedSurrogate
        /// A number that does not follow the JSON grammar (leading zeros, a bare `-`,
        /// `1.`, `1e`, …). The offset is the first byte that breaks the grammar.
        case invalidNumber
        /// Arrays and objects nested deeper than ``JSONParser/Limits/maxDepth``.
        /// The offset is the bracket that went over the limit.
        case nestingTooDeep
        /// A string or number longer than its limit in ``JSONParser/Limits``.
        /// The offset is the start of that string or number.
        case tooLong
    }

    /// What went wrong.
    public let kind: Kind
    /// The 0-based byte offset in the input where it went wrong.
    public let offset: Int

    /// Creates an error of `kind` at byte `offset`.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The problem in plain words with its byte offset, e.g. "invalid UTF-8 at byte 12".
    public var description: String {
        let what: String
        switch kind {
        case .empty: return "empty input: no JSON value"
        case .unexpectedEnd: what = "unexpected end of input"
        case .unexpectedByte: what = "unexpected character"
        case .trailingData: what = "unexpected data after the JSON value"
        case .invalidUTF8: what = "invalid UTF-8"
        case .controlCharacter: what = "unescaped control character in a string"
        case .invalidEscape: what = "invalid escape sequence"
        case .unpairedSurrogate: what = "unpaired UTF-16 surrogate escape"
        case .invalidNumber: what = "invalid number"
        case .nestingTooDeep: what = "arrays or objects nested too deeply"
        case .tooLong: what = "string or number too long"
        }
        return "\(what) at byte \(offset)"
    }
}

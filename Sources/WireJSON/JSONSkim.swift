/// One JSON value inside bytes that are not parsed into a tree: a member or an element is found
/// by skipping over the values before it, and only the scalars asked for are parsed (by
/// ``JSONParser``). For a reader that needs a few fields of a large document — a load generator
/// checking replies by the hundred thousand — without allocating the rest.
///
/// Skimming is not validation: bytes skipped over are only checked enough to find where each
/// value ends (strings with their escapes, brackets that match, at most 64 levels, no running
/// past the end), so a malformed value that is never looked at can go unnoticed. Every value that is read is parsed in full.
///
/// A skim points into `bytes`: use it only while they stay valid (within the closure that lent
/// them).
public struct JSONSkim {
    private let bytes: UnsafeRawBufferPointer
    /// Where the value starts (its first byte, never whitespace) and ends (just past it).
    private let start: Int
    private let end: Int

    /// The document in `bytes`: one value, with only whitespace around it; `nil` when its
    /// structure cannot be followed.
    public init?(document bytes: UnsafeRawBufferPointer) {
        let start = Self.skipWhitespace(bytes, from: 0, limit: bytes.count)
        guard let end = Self.skipValue(bytes, from: start, limit: bytes.count), Self.skipWhitespace(bytes, from: end, limit: bytes.count) == bytes.count
        else { return nil }
        self.init(bytes, start, end)
    }

    /// The value that starts at `start` in `bytes` (after any whitespace), `nil` when its
    /// structure cannot be followed; what comes after it is not looked at. For a reader that has
    /// found where a value starts by other means (a reply whose first bytes are known).
    public init?(_ bytes: UnsafeRawBufferPointer, valueAt start: Int) {
        guard start >= 0, start <= bytes.count else { return nil }
        let first = Self.skipWhitespace(bytes, from: start, limit: bytes.count)
        guard let end = Self.skipValue(bytes, from: first, limit: bytes.count) else { return nil }
        self.init(bytes, first, end)
    }

    private init(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) {
        self.bytes = bytes
        self.start = start
        self.end = end
    }

    /// The value's own bytes.
    public var rawBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[start..<end]) }

    /// Whether the value is an object.
    public var isObject: Bool { bytes[start] == UInt8(ascii: "{") }

    /// Whether the value is an array.
    public var isArray: Bool { bytes[start] == UInt8(ascii: "[") }

    /// The value of member `key` when the value is an object that has it, `nil` otherwise; of
    /// duplicate keys the last counts, as in ``JSONObject``.
    public subscript(key: String) -> JSONSkim? {
        guard isObject else { return nil }
        var key = key
        return key.withUTF8 { wanted in
            var found: JSONSkim?
            forEachMember { name, value in
                if Self.keyMatches(name, wanted) { found = value }
                return true
            }
            return found
        }
    }

    /// Calls `body` with each element of an array in order while it returns `true`; `false` when
    /// the value is not an array.
    @discardableResult
    public func forEachElement(_ body: (JSONSkim) -> Bool) -> Bool {
        guard isArray else { return false }
        // The last byte is the closing bracket: every step stays before it.
        let limit = end - 1
        var position = Self.skipWhitespace(bytes, from: start + 1, limit: limit)
        while let valueEnd = Self.skipValue(bytes, from: position, limit: limit) {
            guard body(JSONSkim(bytes, position, valueEnd)) else { return true }
            position = Self.skipWhitespace(bytes, from: valueEnd, limit: limit)
            guard position < limit, bytes[position] == UInt8(ascii: ",") else { return true }
            position = Self.skipWhitespace(bytes, from: position + 1, limit: limit)
        }
        return true
    }

    /// How many elements an array has; `nil` when the value is not an array.
    public var elementCount: Int? {
        var count = 0
        return forEachElement { _ in
            count += 1
            return true
        } ? count : nil
    }

    /// The value parsed into a tree; `nil` when it is not valid JSON.
    public var parsed: JSONValue? { try? JSONParser.parse(rawBytes) }

    /// The value as a string when it is one.
    public var stringValue: String? {
        guard bytes[start] == UInt8(ascii: "\""), end - start >= 2 else { return nil }
        let inside = UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)])
        // Without escapes or control characters the text is the string (once it is valid UTF-8).
        if !inside.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 }) {
            return String(validating: inside, as: UTF8.self)
        }
        return parsed?.stringValue
    }

    /// The value as an `Int` when it is an integer in range.
    public var intValue: Int? {
        guard isNumber else { return nil }
        if let (units, fractionDigits) = shortDecimal, fractionDigits == 0 { return Int(units) }
        return parsed?.intValue
    }

    /// The value as a `Double` when it is a number.
    public var doubleValue: Double? {
        guard isNumber else { return nil }
        if let (units, fractionDigits) = shortDecimal, units.magnitude <= 1 << 53, fractionDigits < Self.powersOfTen.count {
            // Both exact in a Double (at most 2^53 and 10^22), so one correctly rounded
            // division gives what the parser would.
            return Double(units) / Self.powersOfTen[fractionDigits]
        }
        return parsed?.doubleValue
    }

    /// 10^0 … 10^22: every one exact in a Double.
    private static let powersOfTen: [Double] = (0...22).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

    /// A number written `-?DIGITS(.DIGITS)?` (valid by the parser's grammar, no exponent) with at
    /// most 18 digits in all, as its digits read as an integer and the count after the point;
    /// `nil` for any other form (left to the parser).
    private var shortDecimal: (units: Int64, fractionDigits: Int)? {
        rawBytes.withMemoryRebound(to: UInt8.self) { text in
            guard NumberGrammar.scan(text, from: 0) == text.count else { return nil }
            let negative = text[0] == UInt8(ascii: "-")
            var units: Int64 = 0
            var digits = 0
            var fractionDigits = 0
            var seenPoint = false
            for byte in text[(negative ? 1 : 0)...] {
                if NumberGrammar.isDigit(byte) {
                    guard digits < 18 else { return nil }
                    units = units * 10 + Int64(byte &- UInt8(ascii: "0"))
                    digits += 1
                    if seenPoint { fractionDigits += 1 }
                } else if byte == UInt8(ascii: ".") {
                    seenPoint = true
                } else {
                    return nil  // an exponent
                }
            }
            // Minus zero keeps its sign only through the parser.
            guard !negative || units != 0 else { return nil }
            return (negative ? -units : units, fractionDigits)
        }
    }

    private var isNumber: Bool {
        let first = bytes[start]
        return first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
    }

    /// Calls `body` with each member's raw key bytes (between the quotes) and value, in order,
    /// while it returns `true`.
    private func forEachMember(_ body: (UnsafeRawBufferPointer, JSONSkim) -> Bool) {
        // The last byte is the closing brace: every step stays before it.
        let limit = end - 1
        var position = Self.skipWhitespace(bytes, from: start + 1, limit: limit)
        while position < limit, bytes[position] == UInt8(ascii: "\"") {
            guard let keyEnd = Self.skipString(bytes, from: position, limit: limit) else { return }
            let name = UnsafeRawBufferPointer(rebasing: bytes[(position + 1)..<(keyEnd - 1)])
            position = Self.skipWhitespace(bytes, from: keyEnd, limit: limit)
            guard position < limit, bytes[position] == UInt8(ascii: ":") else { return }
            position = Self.skipWhitespace(bytes, from: position + 1, limit: limit)
            guard let valueEnd = Self.skipValue(bytes, from: position, limit: limit) else { return }
            guard body(name, JSONSkim(bytes, position, valueEnd)) else { return }
            position = Self.skipWhitespace(bytes, from: valueEnd, limit: limit)
            guard position < limit, bytes[position] == UInt8(ascii: ",") else { return }
            position = Self.skipWhitespace(bytes, from: position + 1, limit: limit)
        }
    }

    /// Whether a raw key equals `wanted`; a key written with escapes is decoded first.
    private static func keyMatches(_ raw: UnsafeRawBufferPointer, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        if !raw.contains(UInt8(ascii: "\\")) { return raw.elementsEqual(wanted) }
        guard let base = raw.baseAddress else { return false }
        // The quotes around the key are just outside `raw`.
        let quoted = UnsafeRawBufferPointer(start: base - 1, count: raw.count + 2)
        guard let decoded = (try? JSONParser.parse(quoted))?.stringValue else { return false }
        return decoded.utf8.elementsEqual(wanted)
    }

    private static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int {
        var position = start
        while position < limit {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return position
            }
        }
        return position
    }

    /// Just past the string that starts at `start` (its opening quote); `nil` when it does not end
    /// before `limit`. Eight bytes at a time up to the next quote or backslash.
    private static func skipString(_ bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var position = start + 1
        while position < limit {
            if position + 8 <= limit {
                let mask = ByteScanning.escapeMask(ByteScanning.load(base + position))
                if mask == 0 {
                    position += 8
                    continue
                }
                position += ByteScanning.firstFlagged(mask)
            }
            switch base[position] {
            case UInt8(ascii: "\""): return position + 1
            case UInt8(ascii: "\\"): position += 2
            default: position += 1
            }
        }
        return nil
    }

    /// Just past the value that starts at `start`; `nil` when there is none or it does not end
    /// before `limit`.
    private static func skipValue(_ bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int? {
        guard start < limit else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return skipString(bytes, from: start, limit: limit)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // The open containers' kinds, innermost in bit 0 (1: an object), so each closing
            // bracket must match; deeper than 64 levels (the parser's limit) is refused.
            var kinds: UInt64 = 0
            var depth = 0
            var position = start
            while position < limit {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    guard let end = skipString(bytes, from: position, limit: limit) else { return nil }
                    position = end
                    continue
                case let open where open == UInt8(ascii: "{") || open == UInt8(ascii: "["):
                    guard depth < 64 else { return nil }
                    kinds = kinds << 1 | (open == UInt8(ascii: "{") ? 1 : 0)
                    depth += 1
                case let close where close == UInt8(ascii: "}") || close == UInt8(ascii: "]"):
                    guard kinds & 1 == (close == UInt8(ascii: "}") ? 1 : 0) else { return nil }
                    kinds >>= 1
                    depth -= 1
                    if depth == 0 { return position + 1 }
                default:
                    break
                }
                position += 1
            }
            return nil
        default:
            // A number or a literal: up to the next delimiter.
            var position = start
            while position < limit {
                switch bytes[position] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                    UInt8(ascii: "\t"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: ":"):
                    return position == start ? nil : position
                default:
                    position += 1
                }
            }
            return position == start ? nil : position
        }
    }
}

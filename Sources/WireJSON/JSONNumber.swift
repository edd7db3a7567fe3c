/// A JSON number, kept as its exact source text.
///
/// Keeping the text means nothing is lost on the way through (big integers, long
/// fractions and huge exponents survive a parse/encode round trip byte for byte), and
/// the conversions below are only paid for when asked.
///
/// Equality and hashing compare `text`, so `1`, `1.0` and `1e0` are different
/// `JSONNumber`s; compare ``int64Value`` or ``doubleValue`` for numeric equality.
///
/// Numbers built from a non-finite `Double` keep Swift's spelling (`inf`, `-inf`,
/// `nan`) as their text. JSON cannot represent them, so ``JSONWriter`` writes them as
/// `null`.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text: as it appeared in the parsed input, or as built by an initialiser.
    public let text: String

    /// Creates a number from text the caller has already checked against the JSON grammar.
    init(uncheckedText text: String) {
        self.text = text
    }

    /// Creates a number from JSON number text, or `nil` if `text` does not follow the
    /// JSON number grammar (RFC 8259 section 6) exactly; no surrounding whitespace.
    public init?(text: String) {
        var text = text
        let valid = text.withUTF8 { buffer in
            NumberGrammar.scan(buffer, from: 0) == buffer.count && !buffer.isEmpty
        }
        guard valid else { return nil }
        self.text = text
    }

    /// Creates an integer number.
    public init(_ value: Int64) {
        self.text = String(value)
    }

    /// Creates an integer number.
    public init(_ value: Int) {
        self.text = String(value)
    }

    /// Creates a number from a `Double`, spelled in the shortest form that reads back as
    /// the same `Double` (Swift's `description`, e.g. `0.1`, `4.5`, `1e-05`, `1e+16`).
    ///
    /// Infinity and NaN are kept (text `inf`, `-inf`, `nan`) but are not JSON:
    /// ``JSONWriter`` writes such a number as `null`.
    public init(_ value: Double) {
        self.text = value.description
    }

    /// The text, as in the JSON.
    public var description: String { text }

    /// Whether the text is a JSON number (false only for the infinity and NaN spellings
    /// produced by ``init(_:)-(Double)``).
    var isJSONRepresentable: Bool {
        // Every JSON number ends in a digit; `inf`, `-inf` and `nan` do not.
        guard let last = text.utf8.last else { return false }
        return last &- 0x30 < 10
    }

    /// The value as an `Int64` when it is mathematically an integer that fits.
    ///
    /// `2`, `2.0`, `2e0`, `200e-2` and `-0` (as 0) all give an integer; `2.5`,
    /// `1e400`, `9223372036854775808` and the non-finite spellings give `nil`.
    public var int64Value: Int64? {
        var text = text
        return text.withUTF8 { NumberGrammar.exactInt64($0) }
    }

    /// The value as an `Int` when it is mathematically an integer that fits.
    public var intValue: Int? {
        guard let value = int64Value else { return nil }
        return Int(exactly: value)
    }

    /// The text spelled by its exact value, one spelling per value (see
    /// `NumberGrammar.exactSpelling`); the text itself for the non-finite spellings.
    var exactText: [UInt8] {
        guard isJSONRepresentable else { return Array(text.utf8) }
        var text = text
        return text.withUTF8 { NumberGrammar.exactSpelling($0) }
    }

    /// The nearest `Double`: a number too large for `Double` gives ±infinity and one too
    /// small gives ±0.
    public var doubleValue: Double {
        var text = text
        if let fast = text.withUTF8({ NumberGrammar.smallIntegerDouble($0) }) {
            return fast
        }
        // The stdlib's correctly rounded conversion; it accepts every JSON number and
        // the non-finite spellings, so the fallback is unreachable.
        return Double(text) ?? .nan
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// Creates an integer number from a literal.
    public init(integerLiteral value: Int64) {
        self.init(value)
    }

    /// Creates a number from a floating-point literal (see ``init(_:)-(Double)``).
    public init(floatLiteral value: Double) {
        self.init(value)
    }
}

/// The JSON number grammar and exact conversions, on UTF-8 bytes.
enum NumberGrammar {
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }

    /// Scans one number starting at `start`. Returns the index just past it, or
    /// `-1 - failIndex` where `failIndex` is the first byte that breaks the grammar
    /// (possibly `buffer.count` when the input ends too early).
    @inline(__always)
    static func scan(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let end = buffer.count
        var i = start
        if i < end && buffer[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end else { return -1 - i }
        let first = buffer[i]
        if first == UInt8(ascii: "0") {
            i += 1
            if i < end && isDigit(buffer[i]) { return -1 - i }
        } else if isDigit(first) {
            i += 1
            while i < end && isDigit(buffer[i]) { i += 1 }
        } else {
            return -1 - i
        }
        if i < end && buffer[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end && isDigit(buffer[i]) else { return -1 - i }
            i += 1
            while i < end && isDigit(buffer[i]) { i += 1 }
        }
        if i < end && buffer[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < end && (buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < end && isDigit(buffer[i]) else { return -1 - i }
            i += 1
            while i < end && isDigit(buffer[i]) { i += 1 }
        }
        return i
    }

    /// `-?[0-9]{1,15}` converted exactly (every such value is exact in a `Double`),
    /// or `nil` for anything else.
    static func smallIntegerDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let negative = !text.isEmpty && text[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        let digits = text.count - i
        guard digits >= 1 && digits <= 15 else { return nil }
        var value: UInt64 = 0
        while i < text.count {
            let digit = text[i] &- 0x30
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
            i += 1
        }
        // `-Double(0)` is -0.0, matching what `-0` means as a Double.
        return negative ? -Double(value) : Double(value)
    }

    /// Valid JSON number text spelled by its exact value, one spelling per value: an optional
    /// `-`, the significant digits without leading or trailing zeros, then `e` and the power of
    /// ten unless it is 0 (`1.50e2` → `15e1`, `0.001` → `1e-3`, `100` → `1e2`); zero is `0`.
    /// A power of ten beyond ±10^9 (far past any finite `Double`) is spelled as ±10^9, so that
    /// values differing only out there get one spelling, and a spelling reads back as itself:
    /// written exponents are read saturated (``writtenExponent(_:at:)``), and moving trailing
    /// zeros into a saturated one would otherwise spell a power that reads back smaller.
    static func exactSpelling(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let end = text.count
        var i = 0
        let negative = end > 0 && text[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var digits: [UInt8] = []
        var exponent = 0
        while i < end, isDigit(text[i]) {
            if !(digits.isEmpty && text[i] == UInt8(ascii: "0")) { digits.append(text[i]) }
            i += 1
        }
        if i < end && text[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, isDigit(text[i]) {
                if !(digits.isEmpty && text[i] == UInt8(ascii: "0")) { digits.append(text[i]) }
                exponent -= 1
                i += 1
            }
        }
        exponent += writtenExponent(text, at: &i)
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        guard !digits.isEmpty else { return [UInt8(ascii: "0")] }
        exponent = min(max(exponent, -maxSpelledExponent), maxSpelledExponent)
        var spelling: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        spelling += digits
        if exponent != 0 {
            spelling.append(UInt8(ascii: "e"))
            spelling += String(exponent).utf8
        }
        return spelling
    }

    /// The largest power of ten ``exactSpelling(_:)`` writes.
    static let maxSpelledExponent = 1_000_000_000

    /// The exponent part (`e`/`E`, a sign, digits) starting at `i`, if there is one: its value,
    /// saturated past 10^9 (beyond that no answer of ``exactSpelling(_:)`` or ``exactInt64(_:)``
    /// depends on the exact value, the digit count being far smaller), with `i` moved past it;
    /// else 0, `i` unmoved.
    @inline(__always)
    static func writtenExponent(_ text: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Int {
        let end = text.count
        guard i < end && text[i] | 0x20 == UInt8(ascii: "e") else { return 0 }
        i += 1
        var negative = false
        if i < end && (text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-")) {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        var written = 0
        while i < end, text[i] &- 0x30 < 10 {
            // Exact up to the largest power spelled, so that a spelling reads back as itself.
            if written < maxSpelledExponent { written = written * 10 + Int(text[i] &- 0x30) }
            i += 1
        }
        return negative ? -written : written
    }

    /// The exact integer value of valid JSON number text, if it is an integer in `Int64`.
    ///
    /// Works on the decimal digits directly: the value is `M × 10^E` with the trailing
    /// zeros of the digit string moved into `E`. It is an integer exactly when `M == 0`
    /// or `E >= 0`. Linear in the text length, no allocation.
    static func exactInt64(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let end = text.count
        var i = 0
        let negative = end > 0 && text[0] == UInt8(ascii: "-")
        if negative { i = 1 }

        // Fast path: a plain integer of at most 18 digits cannot overflow.
        var fast: Int64 = 0
        var j = i
        while j < end, j - i < 19 {
            let digit = text[j] &- 0x30
            if digit >= 10 { break }
            fast = fast &* 10 &+ Int64(digit)
            j += 1
        }
        if j == end && j > i && j - i <= 18 {
            return negative ? -fast : fast
        }

        let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        var mantissa: UInt64 = 0
        var pendingZeros = 0
        var overflow = false
        var exponent = 0
        var sawDigit = false

        @inline(__always)
        func accumulate(_ digit: UInt64) {
            if digit == 0 {
                if mantissa != 0 { pendingZeros += 1 }
                return
            }
            guard !overflow else { return }
            while pendingZeros > 0 {
                let (scaled, o) = mantissa.multipliedReportingOverflow(by: 10)
                if o || scaled > limit { overflow = true; return }
                mantissa = scaled
                pendingZeros -= 1
            }
            let (scaled, o1) = mantissa.multipliedReportingOverflow(by: 10)
            let (sum, o2) = scaled.addingReportingOverflow(digit)
            if o1 || o2 || sum > limit { overflow = true; return }
            mantissa = sum
        }

        while i < end, text[i] &- 0x30 < 10 {
            accumulate(UInt64(text[i] &- 0x30))
            sawDigit = true
            i += 1
        }
        guard sawDigit else { return nil }
        if i < end && text[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, text[i] &- 0x30 < 10 {
                accumulate(UInt64(text[i] &- 0x30))
                exponent -= 1
                i += 1
            }
        }
        exponent += writtenExponent(text, at: &i)
        guard i == end else { return nil }  // not JSON number text (e.g. `inf`)

        if mantissa == 0 && !overflow { return 0 }
        if overflow { return nil }
        var scale = exponent + pendingZeros
        guard scale >= 0, scale <= 19 else { return nil }
        while scale > 0 {
            let (scaled, o) = mantissa.multipliedReportingOverflow(by: 10)
            if o || scaled > limit { return nil }
            mantissa = scaled
            scale -= 1
        }
        if negative {
            return mantissa == limit ? Int64.min : -Int64(mantissa)
        }
        return Int64(mantissa)
    }
}

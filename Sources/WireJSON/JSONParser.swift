/// Strict RFC 8259 JSON parsing of wire messages into ``JSONValue``.
///
/// Accepts exactly one JSON value with optional surrounding whitespace (space, tab, CR,
/// LF), in well-formed UTF-8. Rejects, with a ``JSONError`` giving the kind and byte
/// offset: a UTF-8 byte order mark, any encoding other than UTF-8, malformed UTF-8
/// anywhere (overlong forms, UTF-8-encoded surrogates, code points above U+10FFFF,
/// truncated sequences, stray continuation bytes), raw control characters in strings,
/// unknown escapes, lone or mis-ordered surrogate escapes, numbers outside the grammar
/// (leading zeros, `+1`, `.5`, `1.`, hex, NaN, Infinity), nesting deeper than
/// ``Limits/maxDepth``, and strings or numbers longer than their limits.
///
/// Never crashes or hangs on any input: it is iterative (an explicit stack, no
/// recursion), so no depth can overflow the call stack, and it looks at each byte a
/// bounded number of times, so time is O(n).
///
/// ## Implementation-defined cases
///
/// Where RFC 8259 leaves the choice to the implementation, the parser decides as follows;
/// `JSONTestSuiteTests` asserts every row against JSONTestSuite's `i_` files. In short:
/// every number the grammar allows is accepted whatever its size (the text is kept
/// exactly; ``JSONNumber/int64Value`` is `nil` unless it is an integer that fits `Int64`,
/// ``JSONNumber/doubleValue`` saturates to ±infinity or ±0); anything that is not
/// well-formed UTF-8, or that a Swift `String` cannot hold (a lone surrogate escape), is
/// rejected; only UTF-8 without a byte order mark is JSON; nesting is limited.
///
/// | `i_` file                                      | outcome | kind or value                              |
/// |------------------------------------------------|---------|--------------------------------------------|
/// | number_double_huge_neg_exp `[123.456e-789]`    | accept  | doubleValue 0.0, int64Value nil            |
/// | number_huge_exp `[0.4e00669999…006]`           | accept  | doubleValue +inf, int64Value nil           |
/// | number_neg_int_huge_exp `[-1e+9999]`           | accept  | doubleValue -inf, int64Value nil           |
/// | number_pos_double_huge_exp `[1.5e+9999]`       | accept  | doubleValue +inf, int64Value nil           |
/// | number_real_neg_overflow `[-123123e100000]`    | accept  | doubleValue -inf, int64Value nil           |
/// | number_real_pos_overflow `[123123e100000]`     | accept  | doubleValue +inf, int64Value nil           |
/// | number_real_underflow `[123e-10000000]`        | accept  | doubleValue 0.0, int64Value nil            |
/// | number_too_big_neg_int (30 digits)             | accept  | int64Value nil, doubleValue ≈ -1.23e29     |
/// | number_too_big_pos_int `[100000000000000000000]` | accept | int64Value nil, doubleValue 1e20          |
/// | number_very_big_negative_int (48 digits)       | accept  | int64Value nil, doubleValue ≈ -2.37e47     |
/// | object_key_lone_2nd_surrogate                  | reject  | unpairedSurrogate                          |
/// | string_1st_surrogate_but_2nd_missing           | reject  | unpairedSurrogate                          |
/// | string_1st_valid_surrogate_2nd_invalid         | reject  | unpairedSurrogate                          |
/// | string_incomplete_surrogate_and_escape_valid   | reject  | unpairedSurrogate                          |
/// | string_incomplete_surrogate_pair               | reject  | unpairedSurrogate                          |
/// | string_incomplete_surrogates_escape_valid      | reject  | unpairedSurrogate                          |
/// | string_invalid_lonely_surrogate                | reject  | unpairedSurrogate                          |
/// | string_invalid_surrogate                       | reject  | unpairedSurrogate                          |
/// | string_inverted_surrogates_U+1D11E             | reject  | unpairedSurrogate                          |
/// | string_lone_second_surrogate                   | reject  | unpairedSurrogate                          |
/// | string_UTF-8_invalid_sequence                  | reject  | invalidUTF8                                |
/// | string_UTF8_surrogate_U+D800 (`ED A0 80`)      | reject  | invalidUTF8 (surrogate encoded in UTF-8)   |
/// | string_invalid_utf-8                           | reject  | invalidUTF8                                |
/// | string_iso_latin_1                             | reject  | invalidUTF8                                |
/// | string_lone_utf8_continuation_byte             | reject  | invalidUTF8                                |
/// | string_not_in_unicode_range (`F4 BF BF BF`)    | reject  | invalidUTF8 (above U+10FFFF)               |
/// | string_overlong_sequence_2_bytes               | reject  | invalidUTF8                                |
/// | string_overlong_sequence_6_bytes               | reject  | invalidUTF8                                |
/// | string_overlong_sequence_6_bytes_null          | reject  | invalidUTF8                                |
/// | string_truncated-utf-8                         | reject  | invalidUTF8                                |
/// | string_UTF-16LE_with_BOM                       | reject  | unexpectedByte at 0 (only UTF-8 is JSON)   |
/// | string_utf16BE_no_BOM                          | reject  | unexpectedByte at 0 (only UTF-8 is JSON)   |
/// | string_utf16LE_no_BOM                          | reject  | unexpectedByte at 1 (only UTF-8 is JSON)   |
/// | structure_UTF-8_BOM_empty_object               | reject  | unexpectedByte at 0 (no BOM allowed)       |
/// | structure_500_nested_arrays                    | reject  | nestingTooDeep at byte 64 (default limit 64) |
///
/// Other choices: duplicate object keys are kept in order and lookup returns the last
/// one; `-0` parses as a number whose int64Value is 0 and doubleValue is -0.0; `\u0000`
/// is allowed and yields U+0000 in the string.
public struct JSONParser {
    /// Bounds on what one document may contain.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of arrays and objects allowed; a document with this many
        /// nested containers parses, one more is ``JSONError/Kind/nestingTooDeep``.
        /// Default 64.
        ///
        /// The parser itself never recurses, but Swift releases, compares and encodes
        /// nested ``JSONValue``s recursively (roughly 150 bytes of stack per level), so
        /// keep this in the hundreds: tens of thousands of levels would overflow a
        /// thread's stack when the parsed value is released.
        public var maxDepth: Int
        /// The longest string (value or key) allowed, counted in bytes of the input
        /// between the quotes (escapes count as written). Default 1 MiB.
        public var maxStringBytes: Int
        /// The longest number text allowed, in bytes. Default 1000.
        public var maxNumberLength: Int

        /// Creates limits; the defaults suit wire messages.
        public init(maxDepth: Int = 64, maxStringBytes: Int = 1 << 20, maxNumberLength: Int = 1000) {
            self.maxDepth = maxDepth
            self.maxStringBytes = maxStringBytes
            self.maxNumberLength = maxNumberLength
        }
    }

    /// Parses one JSON document from raw bytes.
    ///
    /// - Throws: ``JSONError`` saying what is wrong and at which byte offset.
    public static func parse(_ bytes: UnsafeRawBufferPointer, limits: Limits = Limits()) throws(JSONError) -> JSONValue {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONError(.empty, at: 0)
        }
        let input = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        // Typical messages fit these stack-allocated starting stacks; deeper or wider ones
        // move to the heap.
        let result = withUnsafeTemporaryAllocation(of: JSONObject.Member.self, capacity: 16) { members in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { frames in
                var engine = ParseEngine(input, limits: limits, members: members, frames: frames)
                defer { engine.releaseStorage() }
                return Result { () throws(JSONError) -> JSONValue in try engine.parseDocument() }
            }
        }
        return try result.get()
    }

    /// Parses one JSON document from a byte array.
    ///
    /// - Throws: ``JSONError`` saying what is wrong and at which byte offset.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> JSONValue in try parse(raw, limits: limits) }
        }
        return try result.get()
    }

    /// Parses one JSON document from any collection of bytes (`ArraySlice`, `Data`, …),
    /// without copying when the collection has contiguous storage.
    ///
    /// - Throws: ``JSONError`` saying what is wrong and at which byte offset.
    public static func parse(_ bytes: some Collection<UInt8>, limits: Limits = Limits()) throws(JSONError) -> JSONValue {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer), limits: limits) }
        }
        if let contiguous {
            return try contiguous.get()
        }
        return try parse(Array(bytes), limits: limits)
    }

    /// Parses one JSON document from the UTF-8 of a string.
    ///
    /// - Throws: ``JSONError`` saying what is wrong and at which byte offset of the UTF-8.
    public static func parse(_ text: String, limits: Limits = Limits()) throws(JSONError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer), limits: limits) }
        }
        return try result.get()
    }
}

/// The parsing state machine over one contiguous input.
///
/// Open containers keep their finished elements on one manually managed stack of
/// members (array elements use an empty key), so there is no per-element uniqueness or
/// bounds check and elements are moved, never copied, into the container's exactly sized
/// array when it closes. The owner must call `releaseStorage()` once done, also after an
/// error.
struct ParseEngine {
    private let input: UnsafeBufferPointer<UInt8>
    private let end: Int
    private let limits: JSONParser.Limits
    private var pos = 0

    /// Finished elements of the open containers, innermost last. For an open object the
    /// top entry may be a key whose value is still being parsed (value `.null`).
    private var stack: UnsafeMutablePointer<JSONObject.Member>
    private var stackCount = 0
    private var stackCapacity: Int
    private var stackOnHeap = false
    /// One entry per open container: `stackStart << 1 | isObject`.
    private var frames: UnsafeMutablePointer<Int>
    private var frameCount = 0
    private var frameCapacity: Int
    private var framesOnHeap = false
    /// Decoded bytes of the string being unescaped.
    private var scratch: [UInt8] = []

    /// An engine whose stacks start in the given (typically stack-allocated) buffers.
    init(
        _ input: UnsafeBufferPointer<UInt8>, limits: JSONParser.Limits,
        members: UnsafeMutableBufferPointer<JSONObject.Member>, frames: UnsafeMutableBufferPointer<Int>
    ) {
        self.input = input
        self.end = input.count
        self.limits = limits
        self.stack = members.baseAddress!
        self.stackCapacity = members.count
        self.frames = frames.baseAddress!
        self.frameCapacity = frames.count
    }

    /// Destroys what an error left on the stack and frees heap storage.
    mutating func releaseStorage() {
        stack.deinitialize(count: stackCount)
        stackCount = 0
        if stackOnHeap { stack.deallocate() }
        if framesOnHeap { frames.deallocate() }
        stackOnHeap = false
        framesOnHeap = false
    }

    @inline(__always)
    private func byte(_ index: Int) -> UInt8 {
        // Every caller has checked `index < end`.
        input[index]
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while pos < end {
            let b = byte(pos)
            guard b <= 0x20, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            pos += 1
        }
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        guard pos < end else { throw JSONError(.empty, at: pos) }
        let root = try parseRootValue()
        skipWhitespace()
        guard pos == end else { throw JSONError(.trailingData, at: pos) }
        return root
    }

    /// Parses values until the outermost one is complete.
    private mutating func parseRootValue() throws(JSONError) -> JSONValue {
        nextValue: while true {
            skipWhitespace()
            guard pos < end else { throw JSONError(.unexpectedEnd, at: end) }
            var value: JSONValue
            switch byte(pos) {
            case UInt8(ascii: "{"):
                try checkDepth()
                pos += 1
                skipWhitespace()
                if pos < end && byte(pos) == UInt8(ascii: "}") {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    pushFrame(stackCount << 1 | 1)
                    try parseKeyAndColon()
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try checkDepth()
                pos += 1
                skipWhitespace()
                if pos < end && byte(pos) == UInt8(ascii: "]") {
                    pos += 1
                    value = .array([])
                } else {
                    pushFrame(stackCount << 1)
                    continue nextValue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            case UInt8(ascii: "t"):
                try expectLiteral(0x6575_7274)  // "true"
                value = .bool(true)
            case UInt8(ascii: "f"):
                pos += 1
                try expectLiteral(0x6573_6C61)  // "alse"
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral(0x6C6C_756E)  // "null"
                value = .null
            default:
                throw JSONError(.unexpectedByte, at: pos)
            }

            while true {
                guard frameCount > 0 else { return value }
                let frame = frames[frameCount - 1]
                let isObject = frame & 1 == 1
                if isObject {
                    // The key was pushed with a placeholder value.
                    stack[stackCount - 1].value = consume value
                } else {
                    pushMember(JSONObject.Member(key: "", value: consume value))
                }
                skipWhitespace()
                guard pos < end else { throw JSONError(.unexpectedEnd, at: end) }
                let b = byte(pos)
                if b == UInt8(ascii: ",") {
                    pos += 1
                    if isObject { try parseKeyAndColon() }
                    continue nextValue
                }
                guard b == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw JSONError(.unexpectedByte, at: pos)
                }
                pos += 1
                frameCount -= 1
                let start = frame >> 1
                value = isObject ? .object(JSONObject(members: popMembers(from: start))) : .array(popValues(from: start))
            }
        }
    }

    @inline(__always)
    private func checkDepth() throws(JSONError) {
        guard frameCount < limits.maxDepth else { throw JSONError(.nestingTooDeep, at: pos) }
    }

    @inline(__always)
    private mutating func pushFrame(_ frame: Int) {
        if frameCount == frameCapacity {
            let newCapacity = frameCapacity * 2
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
            grown.moveInitialize(from: frames, count: frameCount)
            if framesOnHeap { frames.deallocate() }
            frames = grown
            frameCapacity = newCapacity
            framesOnHeap = true
        }
        (frames + frameCount).initialize(to: frame)
        frameCount += 1
    }

    @inline(__always)
    private mutating func pushMember(_ member: consuming JSONObject.Member) {
        if stackCount == stackCapacity { growStack() }
        (stack + stackCount).initialize(to: member)
        stackCount += 1
    }

    private mutating func growStack() {
        let newCapacity = stackCapacity * 2
        let grown = UnsafeMutablePointer<JSONObject.Member>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: stack, count: stackCount)
        if stackOnHeap { stack.deallocate() }
        stack = grown
        stackCapacity = newCapacity
        stackOnHeap = true
    }

    /// Reads `"key"` and `:` (with whitespace around) after `{` or a `,` in an object, and
    /// pushes the key with a placeholder value.
    @inline(__always)
    private mutating func parseKeyAndColon() throws(JSONError) {
        skipWhitespace()
        guard pos < end else { throw JSONError(.unexpectedEnd, at: end) }
        guard byte(pos) == UInt8(ascii: "\"") else { throw JSONError(.unexpectedByte, at: pos) }
        pushMember(JSONObject.Member(key: try parseString(), value: .null))
        skipWhitespace()
        guard pos < end else { throw JSONError(.unexpectedEnd, at: end) }
        guard byte(pos) == UInt8(ascii: ":") else { throw JSONError(.unexpectedByte, at: pos) }
        pos += 1
    }

    /// Moves the values of `stack[start...]` into a new array of exactly that size.
    private mutating func popValues(from start: Int) -> [JSONValue] {
        var result: [JSONValue] = []
        result.reserveCapacity(stackCount - start)
        for i in start..<stackCount {
            result.append((stack + i).move().value)
        }
        stackCount = start
        return result
    }

    /// Moves the members `stack[start...]` into a new array of exactly that size.
    private mutating func popMembers(from start: Int) -> [JSONObject.Member] {
        var result: [JSONObject.Member] = []
        result.reserveCapacity(stackCount - start)
        for i in start..<stackCount {
            result.append((stack + i).move())
        }
        stackCount = start
        return result
    }

    /// Checks the 4 bytes at `pos` against `word` (little-endian ASCII) and skips them.
    @inline(__always)
    private mutating func expectLiteral(_ word: UInt32) throws(JSONError) {
        if end - pos >= 4 {
            let actual = UInt32(littleEndian: UnsafeRawPointer(input.baseAddress! + pos).loadUnaligned(as: UInt32.self))
            if actual == word {
                pos += 4
                return
            }
        }
        // Only errors get here; find the byte that differs so the offset is exact.
        for k in 0..<4 {
            guard pos + k < end else { throw JSONError(.unexpectedEnd, at: end) }
            let expected = UInt8(truncatingIfNeeded: word >> (8 * UInt32(k)))
            if byte(pos + k) != expected { throw JSONError(.unexpectedByte, at: pos + k) }
        }
        pos += 4  // not reached: four matching bytes were accepted above
    }

    private mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = pos
        let stop = NumberGrammar.scan(input, from: start)
        guard stop >= 0 else { throw JSONError(.invalidNumber, at: -1 - stop) }
        let length = stop - start
        guard length <= limits.maxNumberLength else { throw JSONError(.tooLong, at: start) }
        pos = stop
        return JSONNumber(uncheckedText: String(decoding: UnsafeBufferPointer(rebasing: input[start..<stop]), as: UTF8.self))
    }

    /// Parses a string starting at the opening quote at `pos`.
    private mutating func parseString() throws(JSONError) -> String {
        let quote = pos
        let start = pos + 1
        let base = input.baseAddress!
        var i = start
        while true {
            // Most string bytes need no attention, so skip them 8 at a time.
            while i + 8 <= end {
                let mask = ByteScanning.stringStopMask(ByteScanning.load(base + i))
                if mask != 0 {
                    i += ByteScanning.firstFlagged(mask)
                    break
                }
                i += 8
            }
            guard i < end else { throw JSONError(.unexpectedEnd, at: end) }
            let b = byte(i)
            if b &- 0x20 < 0x60 {  // printable ASCII
                if b == UInt8(ascii: "\"") {
                    guard i - start <= limits.maxStringBytes else { throw JSONError(.tooLong, at: quote) }
                    pos = i + 1
                    return String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
                }
                if b == UInt8(ascii: "\\") {
                    return try parseEscapedString(quote: quote, escapeAt: i)
                }
                i += 1
            } else if b < 0x20 {
                throw JSONError(.controlCharacter, at: i)
            } else {
                i = try endOfUTF8Sequence(at: i)
            }
        }
    }

    /// The slow path of `parseString` once a backslash is seen at `escapeAt`.
    private mutating func parseEscapedString(quote: Int, escapeAt: Int) throws(JSONError) -> String {
        let start = quote + 1
        scratch.removeAll(keepingCapacity: true)
        var runStart = start
        var i = escapeAt
        while true {
            guard i < end else { throw JSONError(.unexpectedEnd, at: end) }
            let b = byte(i)
            if b &- 0x20 < 0x60 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            if b >= 0x80 {
                i = try endOfUTF8Sequence(at: i)
                continue
            }
            if b < 0x20 { throw JSONError(.controlCharacter, at: i) }
            if runStart < i {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<i]))
            }
            if b == UInt8(ascii: "\"") {
                guard i - start <= limits.maxStringBytes else { throw JSONError(.tooLong, at: quote) }
                pos = i + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            i = try decodeEscape(at: i)
            runStart = i
        }
    }

    /// Decodes the escape whose backslash is at `i` into `scratch`; returns the index after it.
    private mutating func decodeEscape(at i: Int) throws(JSONError) -> Int {
        guard i + 1 < end else { throw JSONError(.unexpectedEnd, at: end) }
        let decoded: UInt8
        switch byte(i + 1) {
        case UInt8(ascii: "\""): decoded = 0x22
        case UInt8(ascii: "\\"): decoded = 0x5C
        case UInt8(ascii: "/"): decoded = 0x2F
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            let unit = try hex4(at: i + 2, escapeAt: i)
            var scalar = UInt32(unit)
            var next = i + 6
            if unit & 0xFC00 == 0xD800 {
                // A high surrogate must be followed at once by a low surrogate escape.
                guard next + 6 <= end,
                      byte(next) == UInt8(ascii: "\\"), byte(next + 1) == UInt8(ascii: "u"),
                      let low = hex4Value(at: next + 2), low & 0xFC00 == 0xDC00
                else {
                    throw JSONError(.unpairedSurrogate, at: i)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                next += 6
            } else if unit & 0xFC00 == 0xDC00 {
                throw JSONError(.unpairedSurrogate, at: i)
            }
            appendUTF8(scalar)
            return next
        default:
            throw JSONError(.invalidEscape, at: i)
        }
        scratch.append(decoded)
        return i + 2
    }

    @inline(__always)
    private func hexDigit(_ b: UInt8) -> UInt16? {
        if b &- 0x30 < 10 { return UInt16(b &- 0x30) }
        let lower = b | 0x20
        if lower &- 0x61 < 6 { return UInt16(lower &- 0x61 + 10) }
        return nil
    }

    /// The four hex digits at `i`, or `nil` if they are not all there.
    private func hex4Value(at i: Int) -> UInt16? {
        guard i + 4 <= end else { return nil }
        var value: UInt16 = 0
        for k in 0..<4 {
            guard let digit = hexDigit(byte(i + k)) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private func hex4(at i: Int, escapeAt: Int) throws(JSONError) -> UInt16 {
        if let value = hex4Value(at: i) { return value }
        // Distinguish a cut-off input from bad digits.
        for k in 0..<4 {
            guard i + k < end else { throw JSONError(.unexpectedEnd, at: end) }
            if hexDigit(byte(i + k)) == nil { break }
        }
        throw JSONError(.invalidEscape, at: escapeAt)
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Validates the UTF-8 sequence whose lead byte (>= 0x80) is at `i` and returns the
    /// index after it. Follows Unicode Table 3-7 (well-formed UTF-8 byte sequences), which
    /// excludes overlong forms, surrogates and code points above U+10FFFF.
    @inline(__always)
    private func endOfUTF8Sequence(at i: Int) throws(JSONError) -> Int {
        let lead = byte(i)
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0...0xEF:
            length = 3
            if lead == 0xE0 { low = 0xA0 } else if lead == 0xED { high = 0x9F }
        case 0xF0...0xF4:
            length = 4
            if lead == 0xF0 { low = 0x90 } else if lead == 0xF4 { high = 0x8F }
        default:
            throw JSONError(.invalidUTF8, at: i)
        }
        guard i + 1 < end else { throw JSONError(.unexpectedEnd, at: end) }
        let second = byte(i + 1)
        guard second >= low && second <= high else { throw JSONError(.invalidUTF8, at: i) }
        var k = 2
        while k < length {
            guard i + k < end else { throw JSONError(.unexpectedEnd, at: end) }
            guard byte(i + k) & 0xC0 == 0x80 else { throw JSONError(.invalidUTF8, at: i) }
            k += 1
        }
        return i + length
    }
}

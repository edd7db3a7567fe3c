/// A streaming writer of compact JSON (UTF-8, no whitespace) into a byte buffer.
///
/// Commas and colons are written for you: call ``key(_:)`` before each member value of
/// an object, and the value methods for array elements and the top-level value.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("ok"); writer.bool(true)
/// writer.key("ids"); writer.beginArray(); writer.int(1); writer.int(2); writer.endArray()
/// writer.endObject()
/// let bytes = writer.finish()  // {"ok":true,"ids":[1,2]}
/// ```
///
/// The writer trusts its caller: unbalanced `begin`/`end` calls, a member value without a
/// key, or more than one top-level value produce invalid JSON (debug builds assert).
/// Strings are escaped as JSON requires (`"`, `\`, control characters below U+0020);
/// everything else, including non-ASCII text, is written as raw UTF-8.
///
/// The writer owns a growable buffer it writes into directly (one capacity check per
/// call, no per-byte `Array` bookkeeping), so it is noncopyable: pass it `inout` to
/// helpers, read the result with ``finish()``, ``bytes`` or ``withBytes(_:)``.
public struct JSONWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    /// Open containers, innermost last.
    @usableFromInline var depth = 0
    /// Bit `d - 1` is set when level `d` (1...64) already holds a member or element.
    @usableFromInline var nonEmptyBits: UInt64 = 0
    /// Bit `d - 1` is set when level `d` (1...64) is an object.
    @usableFromInline var objectBits: UInt64 = 0
    /// The same two flags (bit 0 non-empty, bit 1 object) for levels deeper than 64.
    @usableFromInline var deepLevels: [UInt8] = []
    /// A key was just written, so the next value belongs to it (no comma).
    @usableFromInline var afterKey = false

    /// Creates a writer whose buffer has room for `capacity` bytes before growing.
    public init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// A copy of the JSON written so far.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// The number of bytes written so far.
    public var byteCount: Int { count }

    /// Calls `body` with the JSON written so far, without copying (e.g. to hand it to a
    /// socket). The buffer is only valid during the call.
    public func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Returns the JSON written, ending the writer.
    public consuming func finish() -> [UInt8] {
        assert(depth == 0 && !afterKey, "JSONWriter finished with open containers or a key without value")
        return bytes
    }

    /// Forgets everything written, keeping the buffer, so one writer can encode value after
    /// value without allocating a buffer for each.
    public mutating func reset() {
        count = 0
        depth = 0
        nonEmptyBits = 0
        objectBits = 0
        deepLevels.removeAll(keepingCapacity: true)
        afterKey = false
    }

    /// Starts an object (as an array element, a member value after ``key(_:)``, or the top level).
    @inlinable
    public mutating func beginObject() {
        beforeValue()
        appendByte(UInt8(ascii: "{"))
        push(isObject: true)
    }

    /// Ends the innermost object.
    @inlinable
    public mutating func endObject() {
        assert(depth > 0 && isObjectLevel && !afterKey, "JSONWriter.endObject() without a matching beginObject() or after a key")
        pop()
        appendByte(UInt8(ascii: "}"))
    }

    /// Starts an array (as an array element, a member value after ``key(_:)``, or the top level).
    @inlinable
    public mutating func beginArray() {
        beforeValue()
        appendByte(UInt8(ascii: "["))
        push(isObject: false)
    }

    /// Ends the innermost array.
    @inlinable
    public mutating func endArray() {
        assert(depth > 0 && !isObjectLevel, "JSONWriter.endArray() without a matching beginArray()")
        pop()
        appendByte(UInt8(ascii: "]"))
    }

    /// Writes a member key (with the comma before it when needed, and the colon after);
    /// the next value written is that member's value.
    public mutating func key(_ key: String) {
        assert(depth > 0 && isObjectLevel && !afterKey, "JSONWriter.key(_:) outside an object or twice in a row")
        markNonEmpty()
        appendString(key)
        appendByte(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a member key given as a literal that needs no escaping (no `"`, `\` or control
    /// characters), copied as is: the fast path for the fixed keys of known shapes. Same output
    /// as ``key(_:)``.
    @inlinable @inline(__always)
    public mutating func key(literal key: StaticString) {
        assert(depth > 0 && isObjectLevel && !afterKey, "JSONWriter.key(literal:) outside an object or twice in a row")
        assert(Self.needsNoEscaping(key), "JSONWriter.key(literal:) with a key that needs escaping")
        markNonEmpty()
        let length = key.utf8CodeUnitCount
        reserve(length + 3)
        base[count] = UInt8(ascii: "\"")
        UnsafeMutableRawPointer(base + count + 1).copyMemory(from: key.utf8Start, byteCount: length)
        base[count + length + 1] = UInt8(ascii: "\"")
        base[count + length + 2] = UInt8(ascii: ":")
        count += length + 3
        afterKey = true
    }

    /// Whether `key` has no byte that JSON escapes (`"`, `\`, control characters): the
    /// precondition of ``key(literal:)``, checked in debug builds on every call. A plain loop:
    /// `allSatisfy` over a buffer instantiated generic metadata on each call of an unoptimised
    /// build, a tenth of the debug endpoint's instructions per request.
    @usableFromInline
    static func needsNoEscaping(_ key: StaticString) -> Bool {
        let start = key.utf8Start
        var index = 0
        while index < key.utf8CodeUnitCount {
            let byte = start[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            index += 1
        }
        return true
    }

    /// Writes a string value, escaped.
    @inlinable
    public mutating func string(_ value: String) {
        beforeValue()
        appendString(value)
    }

    /// Writes an integer value.
    public mutating func int(_ value: Int64) {
        beforeValue()
        appendInteger(value)
    }

    /// Writes an integer value.
    @inlinable
    public mutating func int(_ value: Int) {
        beforeValue()
        appendInteger(Int64(value))
    }

    /// Writes a `Double` in the shortest form that reads back as the same value
    /// (Swift's `description`); infinity and NaN, which JSON cannot represent, as `null`.
    @inlinable
    public mutating func double(_ value: Double) {
        beforeValue()
        if value.isFinite {
            if !appendShortDecimal(value) {
                appendUTF8(value.description)
            }
        } else {
            appendNull()
        }
    }

    /// Writes a number as its text; one built from an infinite or NaN `Double` as `null`.
    public mutating func number(_ value: JSONNumber) {
        beforeValue()
        if value.isJSONRepresentable {
            appendUTF8(value.text)
        } else {
            appendNull()
        }
    }

    /// Writes `true` or `false`.
    @inlinable
    public mutating func bool(_ value: Bool) {
        beforeValue()
        if value {
            appendStatic("true")
        } else {
            appendStatic("false")
        }
    }

    /// Writes `null`.
    @inlinable
    public mutating func null() {
        beforeValue()
        appendNull()
    }

    /// Writes a whole ``JSONValue`` (recursively; numbers from infinite or NaN `Double`s
    /// as `null`).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null:
            null()
        case .bool(let bool):
            self.bool(bool)
        case .number(let number):
            self.number(number)
        case .string(let string):
            self.string(string)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    /// Splices an already encoded JSON value in as the next value, byte for byte.
    /// The bytes are not checked: they must be exactly one valid JSON value.
    public mutating func rawJSON(_ json: UnsafeRawBufferPointer) {
        beforeValue()
        appendBytes(json)
    }

    /// Splices members already encoded (`"a":1,"b":2`: keys and their values, no braces) into
    /// the object being written, after any written before them. The bytes are not checked: they
    /// must be one or more members of a JSON object, comma-separated.
    public mutating func rawMembers(_ members: UnsafeRawBufferPointer) {
        assert(depth > 0 && isObjectLevel && !afterKey, "JSONWriter.rawMembers(_:) outside an object or after a key")
        guard !members.isEmpty else { return }
        markNonEmpty()
        appendBytes(members)
    }

    /// Splices an already encoded JSON value in as the next value, byte for byte.
    /// The bytes are not checked: they must be exactly one valid JSON value.
    public mutating func rawJSON(_ json: some Collection<UInt8>) {
        beforeValue()
        let done: Void? = json.withContiguousStorageIfAvailable { appendBytes(UnsafeRawBufferPointer($0)) }
        if done == nil {
            appendBytes(Array(json))
        }
    }

    @inlinable var isObjectLevel: Bool {
        if depth <= 64 { return objectBits & (1 << UInt64(depth - 1)) != 0 }
        return deepLevels[deepLevels.count - 1] & 2 != 0
    }

    @inline(__always)
    @inlinable mutating func push(isObject: Bool) {
        depth += 1
        if depth <= 64 {
            let bit: UInt64 = 1 << UInt64(depth - 1)
            nonEmptyBits &= ~bit
            if isObject { objectBits |= bit } else { objectBits &= ~bit }
        } else {
            deepLevels.append(isObject ? 2 : 0)
        }
    }

    @inline(__always)
    @inlinable mutating func pop() {
        if depth > 64 { deepLevels.removeLast() }
        depth -= 1
    }

    /// Before any value: nothing after a key, else a comma if the level is not empty.
    @inline(__always)
    @inlinable mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        assert(depth == 0 || !isObjectLevel, "JSONWriter: a value inside an object needs key(_:) first")
        if depth > 0 { markNonEmpty() }
    }

    /// Writes a comma if the current level already has an entry, and marks it non-empty.
    @inline(__always)
    @inlinable mutating func markNonEmpty() {
        if depth <= 64 {
            let bit: UInt64 = 1 << UInt64(depth - 1)
            if nonEmptyBits & bit != 0 {
                appendByte(UInt8(ascii: ","))
            } else {
                nonEmptyBits |= bit
            }
        } else {
            let top = deepLevels.count - 1
            if deepLevels[top] & 1 != 0 {
                appendByte(UInt8(ascii: ","))
            } else {
                deepLevels[top] |= 1
            }
        }
    }

    @inlinable mutating func appendNull() {
        appendStatic("null")
    }

    @inline(__always)
    @inlinable mutating func appendStatic(_ text: StaticString) {
        appendBytes(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    @inlinable mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    @usableFromInline mutating func grow(_ extra: Int) {
        var newCapacity = capacity * 2
        while newCapacity - count < extra { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    @inlinable mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    @inlinable mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    private mutating func appendBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { appendBytes($0) }
    }

    /// Appends a string's UTF-8 as is (for number text, which never needs escaping).
    @usableFromInline mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes(UnsafeRawBufferPointer($0)) }
    }

    @usableFromInline mutating func appendInteger(_ value: Int64) {
        var magnitude = value.magnitude
        var length = value < 0 ? 2 : 1
        var rest = magnitude / 10
        while rest != 0 {
            length += 1
            rest /= 10
        }
        // At most 20 bytes: Int64.min is "-9223372036854775808".
        reserve(length)
        var i = count + length
        repeat {
            i -= 1
            let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
            base[i] = UInt8(truncatingIfNeeded: remainder) &+ 0x30
            magnitude = quotient
        } while magnitude != 0
        if value < 0 { base[count] = UInt8(ascii: "-") }
        count += length
    }

    /// Appends a finite `value` exactly as `value.description` prints it, without creating a
    /// `String`, when it is zero or has a magnitude in 0.001 ..< 1e9 and at most 6 fractional
    /// digits (coordinates, ratings, prices); returns `false` (writing nothing) otherwise.
    ///
    /// `description` prints the shortest decimal that reads back as the same `Double`, in
    /// positional form in this range. With `k` the fewest fractional digits for which some
    /// decimal `m / 10^k` reads back as `value`, that decimal is the one: below 1e9 the spacing
    /// of `Double`s is under 1.2e-7, so at most one decimal with `k ≤ 6` fractional digits lies
    /// within half a spacing of `value`, and none with fewer significant digits does. The check
    /// `m / 10^k == value` is exact: `m < 1e15` and `10^k` are exact, and the division is
    /// correctly rounded, so it yields the `Double` nearest to the decimal.
    @usableFromInline mutating func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        if magnitude == 0 {
            if value.sign == .minus { appendStatic("-0.0") } else { appendStatic("0.0") }
            return true
        }
        guard magnitude >= 0.001, magnitude < 1e9 else { return false }
        var scale = 1.0
        var digits = 0
        while true {
            // Nearest integer by truncation (no libm call): the product is below 1e15 and, when
            // a k-digit decimal exists, within 0.125 of it; the check below catches the rest.
            let units = Int64(magnitude * scale + 0.5)
            if Double(units) / scale == magnitude {
                appendDecimal(units, fractionDigits: digits, negative: value < 0)
                return true
            }
            if digits == 6 { return false }
            digits += 1
            scale *= 10
        }
    }

    /// Appends `[-]integer.fraction` for `units / 10^fractionDigits` (`.0` when there are none).
    private mutating func appendDecimal(_ units: Int64, fractionDigits: Int, negative: Bool) {
        var divisor: Int64 = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        let (integer, fraction) = units.quotientAndRemainder(dividingBy: divisor)
        if negative { appendByte(UInt8(ascii: "-")) }
        appendInteger(integer)
        appendByte(UInt8(ascii: "."))
        if fractionDigits == 0 {
            appendByte(UInt8(ascii: "0"))
            return
        }
        reserve(fractionDigits)
        var rest = fraction
        var i = count + fractionDigits
        while i > count {
            i -= 1
            base[i] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
            rest /= 10
        }
        count += fractionDigits
    }

    /// Writes `"…"` with the string's UTF-8, escaped as JSON requires.
    @usableFromInline mutating func appendString(_ string: String) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            appendQuoted(utf8)
        }
        if done == nil {
            // Only strings without native UTF-8 storage get here.
            var copy = string
            copy.makeContiguousUTF8()
            copy.withUTF8 { appendQuoted($0) }
        }
    }

    /// Appends `"utf8"`, escaped. One capacity check covers the worst case (every byte
    /// written as `\u00XX`), which also leaves room to copy whole 8-byte words while
    /// scanning them for bytes that need escaping.
    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let length = utf8.count
        reserve(length * 6 + 2)
        var out = base + count
        out.initialize(to: UInt8(ascii: "\""))
        out += 1
        if let source = utf8.baseAddress {
            var i = 0
            // Output so far is at most 6 bytes per input byte, so with 8 input bytes left
            // an 8-byte store stays inside the reservation.
            while i + 8 <= length {
                let word = ByteScanning.load(source + i)
                UnsafeMutableRawPointer(out).storeBytes(of: word.littleEndian, as: UInt64.self)
                let mask = ByteScanning.escapeMask(word)
                if mask == 0 {
                    i += 8
                    out += 8
                } else {
                    let plain = ByteScanning.firstFlagged(mask)
                    out = Self.writeEscape(for: source[i + plain], to: out + plain)
                    i += plain + 1
                }
            }
            while i < length {
                let b = source[i]
                if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                    out = Self.writeEscape(for: b, to: out)
                } else {
                    out.initialize(to: b)
                    out += 1
                }
                i += 1
            }
        }
        out.initialize(to: UInt8(ascii: "\""))
        out += 1
        count = out - base
    }

    /// Writes the escape for `b` (a quote, backslash or control character) at `out`;
    /// returns the position after it.
    private static func writeEscape(for b: UInt8, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let short: UInt8
        switch b {
        case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            let hex: StaticString = "0123456789abcdef"
            out[0] = UInt8(ascii: "\\")
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hex.utf8Start[Int(b >> 4)]
            out[5] = hex.utf8Start[Int(b & 0xF)]
            return out + 6
        }
        out[0] = UInt8(ascii: "\\")
        out[1] = short
        return out + 2
    }
}

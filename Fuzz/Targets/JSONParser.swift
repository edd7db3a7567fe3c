import WireJSON

// libFuzzer target: the wire's JSON parser (Sources/WireJSON), on any bytes.
//
// Checks, beyond not crashing: a refusal's offset lies inside the input; whatever parses
// re-encodes compactly to JSON that parses to the same value byte for byte, and encodes again to
// the same bytes; its canonical form parses, is a fixed point, and means what the canonical form
// promises (members sorted, one per distinct key holding the last value, integers as integers,
// other numbers reading as their nearest Double, never as an integer or null, and every spelling
// of a number alike); every number's conversions agree with each other and
// with the standard library's; the depth and number-length limits hold exactly.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let value: JSONValue
    do {
        value = try JSONParser.parse(input)
    } catch {
        require(error.offset >= 0 && error.offset <= size, "offset \(error.offset) outside an input of \(size) bytes: \(error)")
        return 0
    }

    let compact = value.encoded()
    guard let reparsed = try? JSONParser.parse(compact) else {
        require(false, "the compact encoding \(describe(compact)) does not parse")
        return 0
    }
    require(identical(reparsed, value), "the compact encoding \(describe(compact)) parses to another value")
    require(reparsed.encoded() == compact, "encoding \(describe(compact)) again gives other bytes")

    let canonical = value.canonicalEncoded()
    guard let canonicalValue = try? JSONParser.parse(canonical, limits: canonicalTextLimits) else {
        require(false, "the canonical encoding \(describe(canonical)) does not parse")
        return 0
    }
    require(canonicalValue.canonicalEncoded() == canonical, "the canonical encoding \(describe(canonical)) is not a fixed point")
    checkCanonical(canonicalValue, of: value)

    checkNumbers(value)
    checkLimits(value, input)
    return 0
}

/// The limits are exact: the document parses with its own nesting depth and longest number as
/// the limits, and one less of either is refused with that limit's error.
private func checkLimits(_ value: JSONValue, _ input: UnsafeRawBufferPointer) {
    let (depth, numberLength) = extent(value)
    func refusal(_ limits: JSONParser.Limits) -> JSONError.Kind? {
        do {
            _ = try JSONParser.parse(input, limits: limits)
            return nil
        } catch {
            return error.kind
        }
    }
    let exact = JSONParser.Limits(maxDepth: depth, maxNumberLength: max(numberLength, 1))
    require(refusal(exact) == nil, "\(describe(input)) is refused within its own depth \(depth) and number length \(numberLength)")
    if depth > 0 {
        var shallower = exact
        shallower.maxDepth = depth - 1
        require(refusal(shallower) == .nestingTooDeep, "\(describe(input)), \(depth) deep, with maxDepth \(depth - 1): \(String(describing: refusal(shallower)))")
    }
    if numberLength > 1 {
        var shorter = exact
        shorter.maxNumberLength = numberLength - 1
        require(refusal(shorter) == .tooLong, "\(describe(input)), a number of \(numberLength) bytes, with maxNumberLength \(numberLength - 1): \(String(describing: refusal(shorter)))")
    }
}

/// The deepest nesting of arrays and objects in `value` and its longest number text.
private func extent(_ value: JSONValue) -> (depth: Int, numberLength: Int) {
    switch value {
    case .number(let number): return (0, number.text.utf8.count)
    case .array(let elements):
        let inner = elements.map(extent)
        return (1 + (inner.map(\.depth).max() ?? 0), inner.map(\.numberLength).max() ?? 0)
    case .object(let object):
        let inner = object.members.map { extent($0.value) }
        return (1 + (inner.map(\.depth).max() ?? 0), inner.map(\.numberLength).max() ?? 0)
    case .null, .bool, .string: return (0, 0)
    }
}

/// `canonical` (parsed back) is what ``JSONValue/canonicalEncoded()`` promises for `value`.
private func checkCanonical(_ canonical: JSONValue, of value: JSONValue) {
    switch value {
    case .null, .bool, .string:
        require(identical(canonical, value), "canonical \(canonical) of \(value) is not the value itself")
    case .number(let number):
        if let integer = number.int64Value {
            require(canonical.numberValue?.int64Value == integer && canonical.numberValue?.text == String(integer), "canonical \(canonical) of the integer \(number.text)")
        } else {
            // Its nearest Double (infinite ones too), and still no integer: 1.00000000000000000001
            // is not 1, nor 1e400 null.
            require(canonical.numberValue?.doubleValue == number.doubleValue, "canonical \(canonical) of \(number.text) is not its nearest Double")
            require(canonical.numberValue?.int64Value == nil, "canonical \(canonical) of \(number.text), no integer, is an integer")
        }
    case .array(let elements):
        guard case .array(let canonicalElements) = canonical, canonicalElements.count == elements.count else {
            require(false, "canonical \(canonical) of an array of \(elements.count) elements")
            return
        }
        for (element, canonicalElement) in zip(elements, canonicalElements) {
            checkCanonical(canonicalElement, of: element)
        }
    case .object(let object):
        guard case .object(let canonicalObject) = canonical else {
            require(false, "canonical \(canonical) of an object")
            return
        }
        // One member per distinct key (keys compared byte for byte, as lookup compares them),
        // holding the value lookup gives, in byte-wise order of the keys.
        var distinct: [[UInt8]: JSONValue] = [:]
        for member in object.members { distinct[Array(member.key.utf8)] = member.value }
        let keys = canonicalObject.members.map { Array($0.key.utf8) }
        require(keys.count == distinct.count, "canonical \(canonical) has \(keys.count) members for \(distinct.count) distinct keys")
        require(zip(keys, keys.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) }, "canonical \(canonical) does not sort its keys")
        for member in canonicalObject.members {
            guard let original = distinct[Array(member.key.utf8)] else {
                require(false, "canonical \(canonical) has the key \(member.key.debugDescription), which the object has not")
                return
            }
            checkCanonical(member.value, of: original)
        }
    }
}

/// Every number's text is JSON number text, its integer and Double readings agree, and a plain
/// integer's reading is the standard library's.
private func checkNumbers(_ value: JSONValue) {
    switch value {
    case .number(let number):
        require(JSONNumber(text: number.text) != nil, "the parsed number \(number.text) is not JSON number text")
        let double = number.doubleValue
        if let integer = number.int64Value {
            // Both are the correctly rounded reading of one exact value.
            require(Double(integer) == double, "\(number.text): int64Value \(integer) but doubleValue \(double)")
            require(number.intValue == Int(exactly: integer), "\(number.text): intValue \(String(describing: number.intValue)) but int64Value \(integer)")
        }
        if !number.text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            require(number.int64Value == Int64(number.text), "\(number.text): int64Value \(String(describing: number.int64Value)), the standard library reads \(String(describing: Int64(number.text)))")
        }
        require(double == Double(number.text), "\(number.text): doubleValue \(double), the standard library reads \(String(describing: Double(number.text)))")
        // Another spelling of the same value has the same canonical text.
        let other = respelled(number.text)
        guard let respelling = JSONNumber(text: other) else {
            require(false, "\(other), respelled from \(number.text), is no JSON number")
            return
        }
        let canonical = JSONValue.number(number).canonicalEncoded(), respellingCanonical = JSONValue.number(respelling).canonicalEncoded()
        require(canonical == respellingCanonical, "\(number.text) and \(other) have the canonical texts \(describe(canonical)) and \(describe(respellingCanonical))")
    case .array(let elements):
        for element in elements { checkNumbers(element) }
    case .object(let object):
        for member in object.members { checkNumbers(member.value) }
    case .null, .bool, .string:
        break
    }
}

/// JSON number text of the same value spelled otherwise: a zero appended to the fraction (or a
/// `.0` added), and `e0` when there is no exponent (`1` → `1.0e0`, `2.5E3` → `2.50E3`).
private func respelled(_ text: String) -> String {
    let bytes = Array(text.utf8)
    let exponentStart = bytes.firstIndex { $0 | 0x20 == UInt8(ascii: "e") } ?? bytes.endIndex
    var mantissa = Array(bytes[..<exponentStart])
    mantissa += mantissa.contains(UInt8(ascii: ".")) ? Array("0".utf8) : Array(".0".utf8)
    let exponent = exponentStart == bytes.endIndex ? Array("e0".utf8) : Array(bytes[exponentStart...])
    return String(decoding: mantissa + exponent, as: UTF8.self)
}

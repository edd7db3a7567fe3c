import WireJSON

// Shared by every fuzz target (compiled into each; see .ci/fuzz).

/// Stops the run when `condition` does not hold. The trap is libFuzzer's "deadly signal": it
/// saves the input as a `crash-…` file and exits non-zero, so a failed check is reported like a
/// crash, with the message printed first.
func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition {
        fatalError("fuzz check failed: \(message())", file: file, line: line)
    }
}

/// Whether two JSON values are the same byte for byte: numbers by their text, strings and keys
/// by their UTF-8 (`==` on `JSONValue` compares strings by canonical equivalence, so `"é"` and
/// `"e\u{301}"` are equal there), objects member by member in order.
func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x.text.utf8.elementsEqual(y.text.utf8)
    case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case (.object(let x), .object(let y)):
        return identical(x, y)
    default: return false
    }
}

/// ``identical(_:_:)`` for objects.
func identical(_ x: JSONObject, _ y: JSONObject) -> Bool {
    x.count == y.count && zip(x.members, y.members).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && identical($0.value, $1.value) }
}

/// The input as text for a failure message: short inputs whole, long ones by their size.
func describe(_ bytes: some Collection<UInt8>) -> String {
    bytes.count <= 200 ? String(decoding: bytes, as: UTF8.self).debugDescription : "\(bytes.count) bytes"
}

/// Limits for reading a canonical text back. The service only compares canonical texts, never
/// parses them, and the exact spelling of a number (`12…3.4…5` → `12…34…5e-498`) can be a few
/// bytes longer than the number, so past the parser's default 1,000-byte number limit.
let canonicalTextLimits = JSONParser.Limits(maxNumberLength: 1_100)

import Foundation
import Testing
import WireJSON

/// Documents as a whole: values, nesting and its limit, duplicates, whitespace, overloads.
@Suite("Parser structure")
struct ParserStructureTests {
    @Test("a typical request")
    func typicalRequestParses() throws {
        let value = try JSONParser.parse(typicalRequest)
        #expect(value["v"]?.int64Value == 1)
        #expect(value["id"]?.stringValue == "abc-123")
        #expect(value["params"]?["restaurantId"]?.stringValue == "r-00042")
        #expect(value["params"]?["userId"]?.stringValue == "u-7")
        #expect(value["deadlineMs"]?.intValue == 500)
        #expect(value["missing"] == nil)
        #expect(value.objectValue?.keys == ["v", "id", "params", "deadlineMs"])
    }

    @Test("every kind of value, top level and nested")
    func allValueKinds() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse("false") == .bool(false))
        #expect(try JSONParser.parse("12") == 12)
        #expect(try JSONParser.parse(#""s""#) == "s")
        #expect(try JSONParser.parse("[]") == .array([]))
        #expect(try JSONParser.parse("{}") == .object(JSONObject()))
        let nested = try JSONParser.parse(#"{"a":[1,{"b":null,"c":[true,false,[]]},"x",{}],"d":{"e":{"f":-1.5}}}"#)
        let expected: JSONValue = [
            "a": [1, ["b": nil, "c": [true, false, []]], "x", .object(JSONObject())],
            "d": ["e": ["f": .number(JSONNumber(text: "-1.5")!)]],
        ]
        #expect(nested == expected)
    }

    @Test("whitespace: only space, tab, CR and LF, anywhere between tokens")
    func whitespace() throws {
        let spaced = " \t\r\n{ \"a\" :\n[ 1 ,\t2 ] , \"b\"\r:\r\"c\" } \n"
        #expect(try JSONParser.parse(spaced) == ["a": [1, 2], "b": "c"])
        for other in ["\u{0B}", "\u{0C}", "\u{A0}", "\u{2028}", "\u{FEFF}", "\u{0}"] {
            #expect(parseError("[1" + other + "]")?.kind == .unexpectedByte, "\(other.unicodeScalars.first!.value)")
        }
    }

    @Test("duplicate keys are kept in order and the last one wins")
    func duplicateKeys() throws {
        let value = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
        let object = try #require(value.objectValue)
        #expect(object["a"]?.intValue == 3)
        #expect(object.count == 3)
        #expect(object.keys == ["a", "b", "a"])
        #expect(object.members.map(\.value) == [1, 2, 3])
        #expect(encodedText(value) == #"{"a":1,"b":2,"a":3}"#)
    }

    @Test("nesting exactly at the limit is accepted, one more is refused")
    func depthLimit() {
        for depth in [1, 2, 63, 64] {
            let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            #expect(parseError(arrays) == nil, "arrays \(depth)")
            let objects = String(repeating: #"{"k":"#, count: depth) + "0" + String(repeating: "}", count: depth)
            #expect(parseError(objects) == nil, "objects \(depth)")
        }
        let arrays65 = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(parseError(arrays65) == JSONError(.nestingTooDeep, at: 64))
        let mixed65 = String(repeating: #"[{"k":"#, count: 33)  // 66 containers
        #expect(parseError(mixed65) == JSONError(.nestingTooDeep, at: 32 * 6))
        // Siblings do not add up: depth is nesting, not count.
        let wide = "[" + Array(repeating: String(repeating: "[", count: 63) + String(repeating: "]", count: 63), count: 50)
            .joined(separator: ",") + "]"
        #expect(parseError(wide) == nil)
    }

    @Test("a custom depth limit far above the default works without recursion")
    func deepCustomLimit() throws {
        let depth = 1000
        let text = String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(text, limits: .init(maxDepth: depth))
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements[0]
        }
        #expect(levels == depth)
        #expect(value == 7)
        #expect(parseError(text, limits: .init(maxDepth: depth - 1)) == JSONError(.nestingTooDeep, at: depth - 1))
    }

    @Test("wide arrays and objects outgrow the initial stack")
    func wideContainers() throws {
        let count = 1000
        let array = try JSONParser.parse("[" + (0..<count).map(String.init).joined(separator: ",") + "]")
        #expect(array.arrayValue?.count == count)
        #expect(array.arrayValue?.last == .int(count - 1))
        let object = try JSONParser.parse("{" + (0..<count).map { #""k\#($0)":[\#($0)]"# }.joined(separator: ",") + "}")
        #expect(object.objectValue?.count == count)
        #expect(object["k500"]?[0]?.intValue == 500)
        // Wide inside deep inside wide.
        let inner = "[" + (0..<40).map { #"{"n":\#($0),"s":"x\#($0)"}"# }.joined(separator: ",") + "]"
        let outer = "[" + Array(repeating: "[" + inner + "]", count: 40).joined(separator: ",") + "]"
        let value = try JSONParser.parse(outer)
        #expect(value[39]?[0]?[39]?["s"]?.stringValue == "x39")
    }

    @Test("all entry points agree")
    func overloads() throws {
        let text = #"  {"x":[1,"é",null]}  "#
        let bytes = Array(text.utf8)
        let expected = try JSONParser.parse(text)
        #expect(try JSONParser.parse(bytes) == expected)
        #expect(try JSONParser.parse(bytes[...]) == expected)
        #expect(try JSONParser.parse(Data(bytes)) == expected)
        #expect(try JSONParser.parse(ContiguousArray(bytes)) == expected)
        #expect(try JSONParser.parse(bytes.lazy.map { $0 }) == expected)  // not contiguous
        #expect(try bytes.withUnsafeBytes { raw in try JSONParser.parse(raw) } == expected)
        let sliced = Array("xx[1]yy".utf8)
        #expect(try JSONParser.parse(sliced[2..<5]) == [1])
        // Errors carry offsets relative to what was passed.
        #expect(throws: JSONError(.trailingData, at: 3)) { try JSONParser.parse(sliced[2..<6]) }
        #expect(throws: JSONError(.empty, at: 0)) { try JSONParser.parse(UnsafeRawBufferPointer(start: nil, count: 0)) }
        #expect(throws: JSONError(.empty, at: 0)) { try JSONParser.parse([UInt8]()) }
    }

    @Test("a document can be parsed repeatedly with identical results")
    func deterministic() throws {
        let first = try JSONParser.parse(typicalRequest)
        for _ in 0..<100 {
            #expect(try JSONParser.parse(typicalRequest) == first)
        }
    }

    @Test("an error deep inside a large document leaves nothing behind")
    func errorAfterManyValues() {
        // Strings, numbers and containers are on the internal stack when the error hits.
        let prefix = "[" + Array(repeating: #"{"name":"a longer string that needs heap storage","n":[1,2,3]}"#, count: 100)
            .joined(separator: ",")
        for suffix in [",", ",x", ",{\"a\":", ",[[[", ",\"\\q\""] {
            #expect(parseError(prefix + suffix) != nil)
        }
    }
}

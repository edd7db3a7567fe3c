import Testing
import WireJSON

/// ``JSONSkim`` finds the same values the parser does, without a tree, and refuses structure it
/// cannot follow.
@Suite("JSONSkim")
struct JSONSkimTests {
    /// Checks that the skim of `value`'s document agrees with `value` all the way down.
    private func expectAgrees(_ skim: JSONSkim, with value: JSONValue, at path: String = "$") {
        #expect(skim.parsed == value, "\(path)")
        switch value {
        case .object(let object):
            #expect(skim.isObject && !skim.isArray, "\(path)")
            for key in Set(object.keys) {
                guard let member = skim[key] else {
                    Issue.record("\(path).\(key) not found")
                    continue
                }
                expectAgrees(member, with: object[key]!, at: "\(path).\(key)")
            }
            #expect(skim["\u{1}no such key"] == nil)
        case .array(let elements):
            #expect(skim.isArray && !skim.isObject, "\(path)")
            #expect(skim.elementCount == elements.count, "\(path)")
            var index = 0
            skim.forEachElement { element in
                if index < elements.count { expectAgrees(element, with: elements[index], at: "\(path)[\(index)]") }
                index += 1
                return true
            }
        case .string(let string):
            #expect(skim.stringValue == string, "\(path)")
            #expect(skim.intValue == nil && skim.doubleValue == nil && skim.elementCount == nil)
        case .number(let number):
            #expect(skim.doubleValue == number.doubleValue, "\(path)")
            #expect(skim.intValue == value.intValue, "\(path)")
            #expect(skim.stringValue == nil)
        default:
            #expect(skim.stringValue == nil && skim.intValue == nil && skim["a"] == nil && skim.elementCount == nil)
        }
    }

    private func skimmed<Result>(_ text: String, _ body: (JSONSkim?) -> Result) -> Result {
        Array(text.utf8).withUnsafeBytes { body(JSONSkim(document: $0)) }
    }

    @Test("random documents: every member and element is the parser's")
    func randomDocumentsAgreeWithTheParser() throws {
        var generator = ValueGenerator(seed: 0x5C1A)
        for _ in 0..<2_000 {
            let value = generator.value(depth: 4)
            value.encoded().withUnsafeBytes { bytes in
                guard let skim = JSONSkim(document: bytes) else {
                    Issue.record("not skimmed: \(encodedText(value))")
                    return
                }
                expectAgrees(skim, with: value)
            }
        }
    }

    @Test("JSONTestSuite's y_ files: skimmed as the parser reads them", arguments: TestSuiteFiles.names(prefix: "y_"))
    func suiteFilesAgreeWithTheParser(_ name: String) throws {
        let bytes = TestSuiteFiles.bytes(name)
        let value = try JSONParser.parse(bytes)
        bytes.withUnsafeBytes { raw in
            guard let skim = JSONSkim(document: raw) else {
                Issue.record("\(name) not skimmed")
                return
            }
            expectAgrees(skim, with: value)
        }
    }

    @Test("a container cut short anywhere is refused")
    func truncatedContainersAreRefused() {
        var generator = ValueGenerator(seed: 0xC07)
        var checked = 0
        while checked < 200 {
            let value = generator.value(depth: 3)
            guard value.objectValue != nil || value.arrayValue != nil else { continue }
            checked += 1
            let bytes = value.encoded()
            for cut in 0..<bytes.count {
                Array(bytes[..<cut]).withUnsafeBytes { prefix in
                    #expect(JSONSkim(document: prefix) == nil, "\(String(decoding: bytes[..<cut], as: UTF8.self))")
                }
            }
        }
    }

    @Test(
        "numbers read as the parser reads them, to the bit",
        arguments: [
            "0", "-0", "-0.0", "0.1", "1.5", "4.35", "-12.50", "123456789012345", "1234567890123456", "999999999999999.9",
            "0.000001", "4.333333333333333", "0.1234567890123456", "9007199254740992", "9007199254740993", "-9007199254740993.5",
            "123456789012345678", "1234567890123456789", "0.0000000000000000000001", "0.00000000000000000000001", "1e5", "2E-3", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "00", "01", "1.", ".5", "-",
        ])
    func numbersAgreeWithTheParser(_ text: String) {
        let parsed = try? JSONParser.parse(Array(text.utf8))
        skimmed(text) { skim in
            #expect(skim?.doubleValue?.bitPattern == parsed?.doubleValue?.bitPattern, "\(text)")
            #expect(skim?.intValue == parsed?.intValue, "\(text)")
        }
    }

    @Test("strings read as the parser reads them", arguments: [#""plain""#, #""é ü""#, #""tab\there""#, #""\u00e9""#, "\"\u{1}\"", "\"\u{FF}\"", #""""#])
    func stringsAgreeWithTheParser(_ text: String) {
        var bytes = Array(text.utf8)
        if text == "\"\u{FF}\"" { bytes = [0x22, 0xFF, 0x22] }  // not UTF-8
        let parsed = try? JSONParser.parse(bytes)
        bytes.withUnsafeBytes { raw in
            #expect(JSONSkim(document: raw)?.stringValue == parsed?.stringValue, "\(text)")
        }
    }

    @Test("a value found by where it starts")
    func valueAtAnOffset() {
        let text = #"{"v":1,"id":"7","ok":true,"result":{"a":[1,2]}} trailing"#
        Array(text.utf8).withUnsafeBytes { bytes in
            let start = text.utf8.count - #"{"a":[1,2]}} trailing"#.utf8.count
            #expect(JSONSkim(bytes, valueAt: start)?["a"]?.elementCount == 2)
            #expect(JSONSkim(bytes, valueAt: bytes.count) == nil)
            #expect(JSONSkim(bytes, valueAt: bytes.count + 1) == nil)
            #expect(JSONSkim(bytes, valueAt: -1) == nil)
        }
    }

    @Test("strings holding brackets, quotes and escapes are skipped whole")
    func stringsWithStructuralCharacters() {
        skimmed(#"{"x":"}\"],{","y":[1,"]",{"z":"\\"}],"w":2}"#) { skim in
            #expect(skim?["w"]?.intValue == 2)
            #expect(skim?["x"]?.stringValue == #"}"],{"#)
            #expect(skim?["y"]?.elementCount == 3)
        }
    }

    @Test("a key written with escapes is found by its decoded name")
    func escapedKeys() {
        skimmed(#"{"a\u0062":1,"\"q\"":2}"#) { skim in
            #expect(skim?["ab"]?.intValue == 1)
            #expect(skim?[#""q""#]?.intValue == 2)
            #expect(skim?["a\\u0062"] == nil)
        }
    }

    @Test("of duplicate keys the last counts, as in JSONObject")
    func duplicateKeysTakeTheLast() {
        skimmed(#"{"a":1,"b":0,"a":3}"#) { skim in #expect(skim?["a"]?.intValue == 3) }
    }

    @Test("64 levels are followed")
    func deepestNesting() {
        skimmed(String(repeating: "[", count: 64) + "7" + String(repeating: "]", count: 64)) { skim in #expect(skim?.elementCount == 1) }
    }

    @Test("whitespace anywhere between tokens")
    func whitespace() {
        skimmed(" \n{ \"a\" :\t[ 1 , { \"b\" : \"c\" } ] ,\r\n \"d\":null } \n") { skim in
            #expect(skim?["a"]?.elementCount == 2)
            #expect(skim?["a"]?.parsed == [1, ["b": "c"]])
            #expect(skim?["d"]?.parsed == .null)
        }
    }

    @Test("structure that cannot be followed is refused", arguments: [
            "", " ", "{", "[1,2", #"{"a":"b}"#, #""abc"#, "{}}", "[]]", "1 2", "{] ", "[}", #"{"a":[1}]"#, ",",
            String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        ])
    func unfollowableDocuments(_ text: String) {
        skimmed(text) { skim in #expect(skim == nil, "\(text)") }
    }

    @Test("a member whose syntax breaks ends the search without reading past the object")
    func brokenMembersStopTheSearch() {
        skimmed(#"{"a":1 "b":2}"#) { skim in
            #expect(skim?["a"]?.intValue == 1)
            #expect(skim?["b"] == nil)
        }
        skimmed(#"{"a" 1,"b":2}"#) { skim in #expect(skim?["b"] == nil) }
        skimmed(#"{"a":],"b":2}"#) { skim in #expect(skim?["b"] == nil) }
        skimmed(#"[{"a":[1}]"#) { skim in #expect(skim == nil) }
    }
}

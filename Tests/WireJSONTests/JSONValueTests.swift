import Testing
import WireJSON

/// The value model: accessors, literals, `JSONObject` semantics, equality.
@Suite("JSONValue and JSONObject")
struct JSONValueTests {
    @Test("accessors return the payload of the matching case only")
    func accessors() {
        let object: JSONValue = ["s": "text", "b": true, "n": 3, "a": [1, 2], "o": ["x": nil], "z": nil]
        #expect(object["s"]?.stringValue == "text")
        #expect(object["b"]?.boolValue == true)
        #expect(object["n"]?.int64Value == 3)
        #expect(object["n"]?.intValue == 3)
        #expect(object["n"]?.doubleValue == 3)
        #expect(object["n"]?.numberValue?.text == "3")
        #expect(object["a"]?.arrayValue == [1, 2])
        #expect(object["o"]?.objectValue?.keys == ["x"])
        #expect(object["z"]?.isNull == true)
        #expect(object["o"]?["x"]?.isNull == true)
        // Mismatched cases give nil.
        #expect(object["s"]?.boolValue == nil)
        #expect(object["b"]?.stringValue == nil)
        #expect(object["s"]?.int64Value == nil)
        #expect(object["s"]?.arrayValue == nil)
        #expect(object["a"]?.objectValue == nil)
        #expect(object["s"]?.isNull == false)
        #expect(object["s"]?["k"] == nil)
        #expect(object[0] == nil)
        // Array indexing is bounds-checked.
        #expect(object["a"]?[1] == 2)
        #expect(object["a"]?[2] == nil)
        #expect(object["a"]?[-1] == nil)
    }

    @Test("literals build the expected cases")
    func literals() {
        let null: JSONValue = nil
        #expect(null == .null)
        let bool: JSONValue = false
        #expect(bool == .bool(false))
        let int: JSONValue = -5
        #expect(int == .number(JSONNumber(-5)))
        let double: JSONValue = 2.5
        #expect(double == .number(JSONNumber(2.5)))
        let string: JSONValue = "é"
        #expect(string == .string("é"))
        #expect(JSONValue.int(9) == .number(JSONNumber(9)))
        #expect(JSONValue.double(0.5) == .number(JSONNumber(0.5)))
        let object: JSONValue = ["b": 1, "a": 2]
        #expect(object.objectValue?.keys == ["b", "a"])
    }

    @Test("description is the compact JSON")
    func description() {
        let value: JSONValue = ["a": [1, "x\n", nil, true], "b": [:]]
        #expect(value.description == #"{"a":[1,"x\n",null,true],"b":{}}"#)
        #expect("\(JSONValue.double(.nan))" == "null")
    }

    @Test("JSONObject keeps order and duplicates; lookup takes the last")
    func objectOrderAndDuplicates() {
        let object = JSONObject([("z", 1), ("a", 2), ("z", 3)])
        #expect(object.keys == ["z", "a", "z"])
        #expect(object.count == 3)
        #expect(object["z"] == 3)
        #expect(object["a"] == 2)
        #expect(object["q"] == nil)
        #expect(object.contains(key: "a"))
        #expect(!object.contains(key: "q"))
        #expect(object.map(\.key) == ["z", "a", "z"])  // a Collection of members
        #expect(object[1] == JSONObject.Member(key: "a", value: 2))
        #expect(!object.isEmpty && JSONObject().isEmpty)
    }

    @Test("JSONObject subscript setter replaces the last, appends, or removes all")
    func objectSetter() {
        var object = JSONObject([("z", 1), ("a", 2), ("z", 3)])
        object["z"] = 30
        #expect(object.members.map(\.value) == [1, 2, 30])
        object["new"] = "n"
        #expect(object.keys == ["z", "a", "z", "new"])
        object["z"] = nil
        #expect(object.keys == ["a", "new"])
        object.append(key: "a", value: 5)
        #expect(object["a"] == 5 && object.count == 3)
    }

    @Test("keys compare by exact UTF-8 bytes, not Unicode equivalence")
    func keyComparisonIsBytewise() {
        let nfc = "\u{E9}"  // é
        let nfd = "e\u{301}"  // e + combining acute
        #expect(nfc == nfd)  // Swift String equality is canonical equivalence…
        let object = JSONObject([(nfc, 1)])
        #expect(object[nfd] == nil)  // …but member lookup is bytewise, as RFC 8259 §8.3 suggests
        #expect(object[nfc] == 1)
        #expect(JSONObject([("ab", 1)])["a"] == nil)
        #expect(JSONObject([("a", 1)])["ab"] == nil)
    }

    @Test("equality is structural and order-sensitive")
    func equality() {
        let ab: JSONValue = ["a": 1, "b": 2]
        let ba: JSONValue = ["b": 2, "a": 1]
        #expect(ab != ba)
        #expect(ab == ["a": 1, "b": 2])
        #expect(Set<JSONValue>([ab, ba, ab]).count == 2)
        #expect(JSONValue.array([1, 2]) != [2, 1])
        #expect(JSONValue.string("1") != 1)
        #expect(JSONValue.bool(true) != 1)
    }

    @Test("JSONObject literal and init agree")
    func objectInitialisers() {
        let literal: JSONObject = ["k": "v", "n": 1]
        #expect(literal == JSONObject([("k", "v"), ("n", 1)]))
        #expect(literal == JSONObject(members: [.init(key: "k", value: "v"), .init(key: "n", value: 1)]))
    }
}

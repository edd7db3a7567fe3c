import Testing
import WireJSON

/// `JSONValue.canonicalEncoded()`: equal text exactly for values that are equal as JSON values
/// (what an idempotency key compares requests by).
@Suite("Canonical encoding")
struct CanonicalEncodingTests {
    private func canonical(_ text: String) throws -> String {
        String(decoding: try JSONParser.parse(Array(text.utf8)).canonicalEncoded(), as: UTF8.self)
    }

    @Test("spellings of one value give one text", arguments: [
        (#"{"b": 2, "a": [1, {"y": true, "x": null}]}"#, #"{"a":[1,{"x":null,"y":true}],"b":2}"#),
        (#"{"a":2.0}"#, #"{"a":2}"#),
        (#"{"a":2e0}"#, #"{"a":2}"#),
        (#"{"a":200e-2}"#, #"{"a":2}"#),
        (#"{"a":-0}"#, #"{"a":0}"#),
        (#"{"a":1,"a":3}"#, #"{"a":3}"#),
        (#"{"s":"\u00e9\n"}"#, #"{"s":"é\n"}"#),
        (#" [ 1 , 2.5 ] "#, #"[1,2.5]"#),
        (#"{"é":1,"e":2,"z":3}"#, #"{"e":2,"z":3,"é":1}"#),
    ])
    func spellingsOfOneValueGiveOneText(_ pair: (String, String)) throws {
        #expect(try canonical(pair.0) == pair.1)
    }

    @Test("different values give different texts")
    func differentValuesDiffer() throws {
        let values = [
            #"{"a":2}"#, #"{"a":2.5}"#, #"{"a":"2"}"#, #"{"a":null}"#, #"{}"#, #"{"a":[2]}"#, #"{"A":2}"#, #"{"a":true}"#,
            #"{"a":[1,2]}"#, #"{"a":[2,1]}"#,
        ]
        let texts = try values.map(canonical)
        #expect(Set(texts).count == values.count, "\(texts)")
    }

    @Test("the canonical text parses back to an equal value and is a fixed point")
    func roundTrips() throws {
        let text = #"{"z":[1.5,{"b":null,"a":"x"}],"a":-7}"#
        let once = try canonical(text)
        #expect(try canonical(once) == once)
    }
}

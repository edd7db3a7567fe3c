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

    /// Found by Fuzz/Targets/JSONParser.swift: `[123.456e-789]` (a JSONTestSuite seed) was
    /// written `[0.0]`, whose canonical text is `[0]`. Written as the integer instead, it would be
    /// one request with `[0]`, which an integer member takes while it refuses this one.
    @Test("a number that is no integer but whose nearest Double is one keeps its exact value", arguments: [
        ("[123.456e-789]", "[123456e-792]"), ("[-1e-400]", "[-1e-400]"), ("[1.00000000000000000001]", "[100000000000000000001e-20]"),
        ("[100000000000000000.5]", "[1000000000000000005e-1]"), ("[-9223372036854775808.1]", "[-92233720368547758081e-1]"),
        ("[9223372036854775808]", "[9223372036854775808]"), ("[1E19]", "[1e19]"), ("[0.10e+20]", "[1e19]"),
        ("[1e-99999999999999999999]", "[1e-1000000000]"), ("[2.5]", "[2.5]"), ("[1e400]", "[1e400]"),
        ("[-1.5E+400]", "[-15e399]"),
    ])
    func aNumberThatIsNoIntegerButWhoseNearestDoubleIsOneKeepsItsExactValue(_ pair: (String, String)) throws {
        try expectCanonical(pair)
    }

    /// `pair.0`'s canonical text is `pair.1`, which is its own canonical text.
    private func expectCanonical(_ pair: (String, String), sourceLocation: SourceLocation = #_sourceLocation) throws {
        let once = try canonical(pair.0)
        #expect(once == pair.1, sourceLocation: sourceLocation)
        #expect(try canonical(once) == once, sourceLocation: sourceLocation)
    }

    /// Found by Fuzz/Targets/JSONParser.swift: `80e0999…9223` (a hundred digits of exponent) was
    /// spelled `8e10000000000`, the saturated exponent plus the trailing zero moved into it,
    /// which reads back as `8e1000000000`: not a fixed point.
    @Test("powers of ten past a billion are spelled as a billion, and read back as themselves", arguments: [
        ("[80e0" + String(repeating: "9", count: 96) + "223]", "[8e1000000000]"), ("[10e999999999]", "[1e1000000000]"),
        ("[1e1000000000]", "[1e1000000000]"), ("[12e999999999]", "[12e999999999]"), ("[-0.00100e-99999999999]", "[-1e-1000000000]"),
        ("[1000e-1000000002]", "[1e-999999999]"),
    ])
    func powersOfTenPastABillionAreSpelledAsABillion(_ pair: (String, String)) throws {
        try expectCanonical(pair)
    }

    @Test("a number that is no integer is not the integer its nearest Double is")
    func aNumberThatIsNoIntegerIsNotTheIntegerItsNearestDoubleIs() throws {
        #expect(try canonical("[1.00000000000000000001]") != canonical("[1]"))
        #expect(try canonical("[123.456e-789]") != canonical("[0]"))
        #expect(try canonical("[100000000000000000.5]") != canonical("[100000000000000000]"))
    }

    /// Found by Fuzz/Targets/UseCaseParams.swift's check that params and their canonical text
    /// decode alike: `{"limit":1e400}` (refused: not an integer) was canonically `{"limit":null}`
    /// (no limit, accepted), so an idempotency key bound by one replayed its result to the other.
    @Test("a number no Double holds is not null")
    func aNumberNoDoubleHoldsIsNotNull() throws {
        #expect(try canonical(#"{"limit":1e400}"#) == #"{"limit":1e400}"#)
        #expect(try canonical(#"{"limit":1e400}"#) != canonical(#"{"limit":null}"#))
    }

    /// Found with Fuzz/Targets/JSONParser.swift's canonical check, on a hand-written input (its
    /// mutations had not produced one in ten minutes): a `String`-keyed dictionary merged the two
    /// keys into one member (the first key's spelling, the last value), while lookup, comparing
    /// bytes, sees two.
    @Test("keys that differ in bytes but not as Swift strings are two keys")
    func keysThatDifferInBytesButNotAsSwiftStringsAreTwoKeys() throws {
        let precomposed = "\u{E9}", decomposed = "e\u{301}"
        let text = "{\"\(precomposed)\":1,\"\(decomposed)\":2,\"\(precomposed)\":3}"
        let once = try canonical(text)
        #expect(Array(once.utf8) == Array("{\"\(decomposed)\":2,\"\(precomposed)\":3}".utf8))
        #expect(Array(try canonical(once).utf8) == Array(once.utf8))
        #expect(try canonical("{\"\(precomposed)\":1}").utf8.elementsEqual(try canonical("{\"\(decomposed)\":1}").utf8) == false)
    }

    @Test("the canonical text parses back to an equal value and is a fixed point")
    func roundTrips() throws {
        let text = #"{"z":[1.5,{"b":null,"a":"x"}],"a":-7}"#
        let once = try canonical(text)
        #expect(try canonical(once) == once)
    }
}

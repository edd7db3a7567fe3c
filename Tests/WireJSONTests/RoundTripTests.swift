import Testing
import WireJSON

/// parse(encode(v)) == v, and encoding is a fixed point of parse-then-encode.
@Suite("Round trip")
struct RoundTripTests {
    @Test("generated values survive encode then parse", arguments: [UInt64(1), 2, 3, 4])
    func generatedValues(seed: UInt64) throws {
        var generator = ValueGenerator(seed: seed)
        for _ in 0..<1500 {
            let value = generator.value(depth: 5)
            let encoded = value.encoded()
            let reparsed = try JSONParser.parse(encoded)
            #expect(reparsed == value, "\(String(decoding: encoded, as: UTF8.self))")
            // Byte-for-byte stable: encoding what was parsed gives the same bytes.
            #expect(reparsed.encoded() == encoded)
        }
    }

    @Test("strings of every scalar class round trip exactly, bytes included")
    func stringsRoundTripExactly() throws {
        var generator = ValueGenerator(seed: 99)
        for _ in 0..<3000 {
            let string = generator.string()
            let reparsed = try #require(try JSONParser.parse(JSONValue.string(string).encoded()).stringValue)
            // Compare the UTF-8, not canonical equivalence.
            #expect(Array(reparsed.utf8) == Array(string.utf8))
        }
    }

    @Test("parsing then encoding removes only whitespace")
    func canonicalForm() throws {
        let cases: [(String, String)] = [
            (" { \"a\" : [ 1 , 2.50 , -0 , 1E+2 ] , \"b\" : { } } ", #"{"a":[1,2.50,-0,1E+2],"b":{}}"#),
            (#"["\u00e9\/\ud834\udd1e"]"#, "[\"é/𝄞\"]"),
            (#""\u0001\u001F""#, #""\u0001\u001f""#),
            (#""\b\f\n\r\t\"\\""#, #""\b\f\n\r\t\"\\""#),
            ("\t[\n]\r", "[]"),
        ]
        for (input, expected) in cases {
            #expect(encodedText(try JSONParser.parse(input)) == expected)
        }
    }

    @Test("the typical request round trips byte for byte")
    func typicalRequestRoundTrip() throws {
        let value = try JSONParser.parse(typicalRequest)
        #expect(encodedText(value) == typicalRequest)
    }

    @Test("non-finite doubles become null, which parses as null")
    func nonFiniteBecomesNull() throws {
        let value: JSONValue = [.double(.infinity), .double(-.infinity), .double(.nan), .double(1.5)]
        #expect(try JSONParser.parse(value.encoded()) == [nil, nil, nil, 1.5])
    }
}

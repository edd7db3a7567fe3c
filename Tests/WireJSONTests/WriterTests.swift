import SeededRandom
import Testing
@testable import WireJSON

/// JSONWriter: escaping, commas, numbers, splicing, buffer access.
@Suite("Writer")
struct WriterTests {
    private func written(_ build: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(capacity: 8)
        build(&writer)
        return String(decoding: writer.finish(), as: UTF8.self)
    }

    private func encodedString(_ string: String) -> String {
        written { $0.string(string) }
    }

    /// A byte-at-a-time reference escaper to compare the fast path with.
    private func referenceEscaped(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                out += "\\u00" + (hex.count == 1 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test("every control character is escaped", arguments: 0..<0x20)
    func controlCharacters(_ code: Int) throws {
        let string = String(UnicodeScalar(UInt8(code)))
        let expected: String
        switch code {
        case 0x08: expected = #""\b""#
        case 0x09: expected = #""\t""#
        case 0x0A: expected = #""\n""#
        case 0x0C: expected = #""\f""#
        case 0x0D: expected = #""\r""#
        default:
            let hex = Array("0123456789abcdef")
            expected = "\"\\u00\(hex[code >> 4])\(hex[code & 0xF])\""
        }
        #expect(encodedString(string) == expected)
        #expect(try JSONParser.parse(encodedString(string)) == .string(string))
    }

    @Test("quotes and backslashes are escaped; slash, DEL and non-ASCII are not")
    func otherCharacters() {
        #expect(encodedString("say \"hi\"") == #""say \"hi\"""#)
        #expect(encodedString(#"C:\dir"#) == #""C:\\dir""#)
        #expect(encodedString("a/b") == #""a/b""#)
        #expect(encodedString("\u{7F}") == "\"\u{7F}\"")
        #expect(encodedString("é€𝄞日本😀") == "\"é€𝄞日本😀\"")
        #expect(encodedString("\u{2028}\u{2029}") == "\"\u{2028}\u{2029}\"")
        #expect(encodedString("") == #""""#)
    }

    @Test("escaping matches a reference escaper at every position and length")
    func escapingPositions() {
        let specials: [Character] = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "€", "😀", "\t"]
        for length in 0..<36 {
            let plain = String(repeating: "x", count: length)
            #expect(encodedString(plain) == "\"" + plain + "\"")
            for position in 0...length {
                for special in specials {
                    var string = plain
                    string.insert(special, at: string.index(string.startIndex, offsetBy: position))
                    #expect(encodedString(string) == referenceEscaped(string), "\(string.debugDescription)")
                }
            }
        }
        let dense = String(repeating: "\"\\\n\u{0}é", count: 50)
        #expect(encodedString(dense) == referenceEscaped(dense))
    }

    @Test("commas and colons in nested objects and arrays")
    func structure() {
        let json = written { w in
            w.beginObject()
            w.key("a"); w.int(1)
            w.key("b"); w.beginArray()
            w.int(1); w.beginObject(); w.endObject(); w.beginArray(); w.endArray()
            w.beginObject(); w.key("x"); w.null(); w.key("y"); w.beginArray(); w.bool(true); w.bool(false); w.endArray(); w.endObject()
            w.string("s")
            w.endArray()
            w.key("c"); w.beginObject(); w.key("d"); w.beginObject(); w.key("e"); w.string("f"); w.endObject(); w.endObject()
            w.key("g"); w.beginArray(); w.endArray()
            w.endObject()
        }
        #expect(json == #"{"a":1,"b":[1,{},[],{"x":null,"y":[true,false]},"s"],"c":{"d":{"e":"f"}},"g":[]}"#)
    }

    @Test("top-level scalars")
    func topLevelScalars() {
        #expect(written { $0.null() } == "null")
        #expect(written { $0.bool(true) } == "true")
        #expect(written { $0.int(-3) } == "-3")
        #expect(written { $0.string("x") } == #""x""#)
    }

    @Test("integers, including the Int64 bounds")
    func integers() {
        #expect(written { $0.int(Int64.max) } == "9223372036854775807")
        #expect(written { $0.int(Int64.min) } == "-9223372036854775808")
        #expect(written { $0.int(0) } == "0")
        #expect(written { $0.int(-1) } == "-1")
        #expect(written { $0.int(Int.max) } == String(Int.max))
        var rng = SplitMix64(seed: 42)
        for _ in 0..<1000 {
            let value = Int64(bitPattern: rng.next()) >> (rng.next() % 64)
            #expect(written { $0.int(value) } == String(value))
        }
    }

    @Test("doubles: shortest round-trip text; infinity and NaN as null")
    func doubles() {
        #expect(written { $0.double(4.5) } == "4.5")
        #expect(written { $0.double(0.1) } == "0.1")
        #expect(written { $0.double(1e-05) } == "1e-05")
        #expect(written { $0.double(1e16) } == "1e+16")
        #expect(written { $0.double(100) } == "100.0")
        #expect(written { $0.double(-0.0) } == "-0.0")
        #expect(written { $0.double(.greatestFiniteMagnitude) } == "1.7976931348623157e+308")
        #expect(written { $0.double(.infinity) } == "null")
        #expect(written { $0.double(-.infinity) } == "null")
        #expect(written { $0.double(.nan) } == "null")
        let array = written { w in
            w.beginArray(); w.double(.nan); w.double(1.5); w.number(JSONNumber(.infinity)); w.endArray()
        }
        #expect(array == "[null,1.5,null]")
        #expect(encodedText(["x": .double(.infinity), "y": .double(-.nan)]) == #"{"x":null,"y":null}"#)
    }

    @Test("numbers keep their text")
    func numbers() {
        #expect(written { $0.number(JSONNumber(text: "1.50E+3")!) } == "1.50E+3")
        #expect(written { $0.value(.number(JSONNumber(text: "-0")!)) } == "-0")
    }

    @Test("rawJSON splices a fragment as one value")
    func rawJSON() {
        let fragment = Array(#"{"pre":"encoded"}"#.utf8)
        let json = written { w in
            w.beginArray()
            w.int(1)
            w.rawJSON(fragment)
            fragment.withUnsafeBytes { w.rawJSON($0) }
            w.rawJSON(fragment[...])
            w.endArray()
        }
        #expect(json == #"[1,{"pre":"encoded"},{"pre":"encoded"},{"pre":"encoded"}]"#)
        let inObject = written { w in
            w.beginObject(); w.key("a"); w.rawJSON(Array("[1,2]".utf8)); w.key("b"); w.rawJSON(Array("3".utf8)); w.endObject()
        }
        #expect(inObject == #"{"a":[1,2],"b":3}"#)
    }

    @Test("rawMembers splices encoded members into the object being written")
    func rawMembers() {
        let members = Array(#""pre":"encoded","n":[1]"#.utf8)
        let first = written { w in
            w.beginObject()
            members.withUnsafeBytes { w.rawMembers($0) }
            w.key("after"); w.bool(true)
            w.endObject()
        }
        #expect(first == #"{"pre":"encoded","n":[1],"after":true}"#)
        let between = written { w in
            w.beginArray()
            w.beginObject(); w.key("before"); w.null()
            members.withUnsafeBytes { w.rawMembers($0) }
            [UInt8]().withUnsafeBytes { w.rawMembers($0) }
            w.endObject()
            w.beginObject(); [UInt8]().withUnsafeBytes { w.rawMembers($0) }; w.key("x"); w.int(1); w.endObject()
            w.endArray()
        }
        #expect(between == #"[{"before":null,"pre":"encoded","n":[1]},{"x":1}]"#)
    }

    @Test("value(_:) writes whole values, duplicates and order included")
    func wholeValues() {
        let value = JSONValue.object(JSONObject([("a", [1, "two", nil]), ("a", ["b": false]), ("", .array([]))]))
        #expect(encodedText(value) == #"{"a":[1,"two",null],"a":{"b":false},"":[]}"#)
        let mixed = written { w in
            w.beginArray(); w.value(value); w.value("x"); w.endArray()
        }
        #expect(mixed == #"[{"a":[1,"two",null],"a":{"b":false},"":[]},"x"]"#)
    }

    @Test("bytes, byteCount, withBytes and finish agree; the buffer grows")
    func bufferAccess() {
        var writer = JSONWriter(capacity: 1)
        writer.beginArray()
        let long = String(repeating: "ab\"c", count: 1000)
        writer.string(long)
        writer.int(5)
        writer.endArray()
        let copy = writer.bytes
        #expect(writer.byteCount == copy.count)
        let viaPointer = writer.withBytes { Array($0) }
        #expect(viaPointer == copy)
        let finished = writer.finish()
        #expect(finished == copy)
        #expect(String(decoding: finished, as: UTF8.self) == "[" + referenceEscaped(long) + ",5]")
    }

    @Test("nesting deeper than 64 levels keeps commas right")
    func deepWriter() throws {
        let depth = 200
        let json = written { w in
            for level in 0..<depth {
                if level % 2 == 0 {
                    w.beginArray(); w.int(level)
                } else {
                    w.beginObject(); w.key("n"); w.int(level); w.key("c")
                }
            }
            w.string("leaf")
            for level in (0..<depth).reversed() {
                if level % 2 == 0 { w.int(-1); w.endArray() } else { w.key("z"); w.null(); w.endObject() }
            }
        }
        var value = try JSONParser.parse(json, limits: .init(maxDepth: depth))
        for level in 0..<depth {
            if level % 2 == 0 {
                #expect(value[0]?.intValue == level)
                #expect(value[2] == -1)
                value = try #require(value[1])
            } else {
                #expect(value["n"]?.intValue == level)
                #expect(value["z"] == .null)
                value = try #require(value["c"])
            }
        }
        #expect(value == "leaf")
    }

    @Test("a ~300-byte reply written by hand parses back")
    func typicalReply() throws {
        var w = JSONWriter()
        w.beginObject()
        w.key("v"); w.int(1)
        w.key("id"); w.string("abc-123")
        w.key("ok"); w.bool(true)
        w.key("result"); w.beginObject()
        w.key("restaurant"); w.beginObject()
        w.key("id"); w.string("r-00042")
        w.key("name"); w.string("Trattoria \"Roma\"")
        w.key("rating"); w.double(4.5)
        w.key("latitude"); w.double(41.9028)
        w.key("website"); w.null()
        w.key("openingHours"); w.beginArray(); w.string("Mo-Fr 11:00-22:00"); w.string("Sa 12:00-23:00"); w.endArray()
        w.endObject()
        w.endObject()
        w.endObject()
        let value = try JSONParser.parse(w.finish())
        #expect(value["result"]?["restaurant"]?["name"]?.stringValue == "Trattoria \"Roma\"")
        #expect(value["result"]?["restaurant"]?["latitude"]?.doubleValue == 41.9028)
        #expect(value["result"]?["restaurant"]?["openingHours"]?[1]?.stringValue == "Sa 12:00-23:00")
    }

    @Test("doubles: the allocation-free short-decimal path prints exactly what description prints")
    func shortDecimalsMatchDescription() {
        var values: [Double] = [
            0, -0.0, 0.001, -0.001, 0.0009999999999999998, 0.1, 0.2, 0.30000000000000004, 0.5, 1, 9.999999,
            10, 99.99999999999999, 100, 123456.789, 999_999_999, 999_999_999.999999, 1e9, 1e9 - 0.5,
            48.8566, 2.3522, -122.4194, 37.7749, 4.333333333333333, 4.25, 0.000999, 1.0000001, .leastNonzeroMagnitude,
            Double(Float(0.1)), 0.1 + 0.7, 1.005, 2.675, 0.015625, 1.1e-3, 8.5e8,
        ]
        var generator = SystemRandomNumberGenerator()
        for digits in 0...8 {
            var scale = 1.0
            for _ in 0..<digits { scale *= 10 }
            for _ in 0..<4000 {
                let units = Double(Int64.random(in: -2_000_000_000_000...2_000_000_000_000, using: &generator))
                values.append(units / scale)
                values.append(Double(Int.random(in: -1000...1000, using: &generator)) / scale)
            }
        }
        for _ in 0..<20000 {
            values.append(Double.random(in: -1e10...1e10, using: &generator))
            values.append(Double.random(in: -1...1, using: &generator))
            values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
        }
        var mismatches: [String] = []
        for value in values where value.isFinite {
            let text = written { $0.double(value) }
            if text != value.description { mismatches.append("\(value.description) written as \(text)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test("literal keys are written like escaped ones")
    func literalKeys() {
        let literal = written { w in
            w.beginObject(); w.key(literal: "a"); w.int(1); w.key(literal: "restaurantId"); w.beginObject()
            w.key(literal: ""); w.null(); w.endObject(); w.endObject()
        }
        let plain = written { w in
            w.beginObject(); w.key("a"); w.int(1); w.key("restaurantId"); w.beginObject()
            w.key(""); w.null(); w.endObject(); w.endObject()
        }
        #expect(literal == plain)
        #expect(literal == #"{"a":1,"restaurantId":{"":null}}"#)
    }

    @Test("a literal key's precondition refuses exactly the bytes JSON escapes")
    func literalKeyPrecondition() {
        #expect(JSONWriter.needsNoEscaping("restaurantId"))
        #expect(JSONWriter.needsNoEscaping(""))
        #expect(JSONWriter.needsNoEscaping("é ~/"))
        #expect(!JSONWriter.needsNoEscaping("a\"b"))
        #expect(!JSONWriter.needsNoEscaping("a\\b"))
        #expect(!JSONWriter.needsNoEscaping("tab\there"))
        #expect(!JSONWriter.needsNoEscaping("\u{1F}"))
    }

    @Test("reset forgets what was written and the writer can be used again")
    func resetReuse() {
        var w = JSONWriter(capacity: 4)
        w.beginArray(); w.beginObject(); w.key("k")
        w.reset()
        w.beginObject(); w.key(literal: "x"); w.string(String(repeating: "y", count: 100)); w.endObject()
        let first = w.bytes
        w.reset()
        w.beginArray(); w.int(1); w.int(2); w.endArray()
        #expect(String(decoding: first, as: UTF8.self) == #"{"x":""# + String(repeating: "y", count: 100) + #""}"#)
        #expect(String(decoding: w.finish(), as: UTF8.self) == "[1,2]")
    }
}

import Testing
import WireJSON

/// Strings: escapes, surrogate pairs, UTF-8 validation, control characters, length limits.
@Suite("Parser strings")
struct ParserStringTests {
    private func string(_ json: String) throws -> String {
        try #require(try JSONParser.parse(json).stringValue)
    }

    private func string(bytes: [UInt8]) throws -> String {
        try #require(try JSONParser.parse(bytes).stringValue)
    }

    @Test("every simple escape")
    func simpleEscapes() throws {
        #expect(try string(#""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{8}\u{C}\n\r\t")
        #expect(try string(#""a\nb""#) == "a\nb")
        #expect(try string(#""\\n""#) == "\\n")
        #expect(try string(#""x\/y""#) == "x/y")
    }

    @Test("\\u escapes, upper and lower case, including U+0000")
    func unicodeEscapes() throws {
        #expect(try string(#""\u0041""#) == "A")
        #expect(try string(#""\u00e9\u00E9""#) == "éé")
        #expect(try string(#""\u20AC""#) == "€")
        #expect(try string(#""\u0000""#) == "\u{0}")
        #expect(try string(#""\u001f""#) == "\u{1F}")
        #expect(try string(#""\uFFFF""#) == "\u{FFFF}")
        #expect(try string(#""\uD7FF\uE000""#) == "\u{D7FF}\u{E000}")
    }

    @Test("surrogate pairs combine")
    func surrogatePairs() throws {
        #expect(try string(#""\uD834\uDD1E""#) == "𝄞")
        #expect(try string(#""\ud834\udd1e""#) == "𝄞")
        #expect(try string(#""\uD83D\uDE00!""#) == "😀!")
        #expect(try string(#""\uD800\uDC00""#) == "\u{10000}")
        #expect(try string(#""\uDBFF\uDFFF""#) == "\u{10FFFF}")
        #expect(try string(#""a\uD834\uDD1Eb\uD834\uDD1E""#) == "a𝄞b𝄞")
    }

    @Test("lone and mis-ordered surrogate escapes are rejected")
    func loneSurrogates() {
        for json in [
            #""\uD800""#, #""\uDBFF""#, #""\uDC00""#, #""\uDFFF""#, #""\uDD1E\uD834""#, #""\uD834\uD834""#,
            #""\uD834\u0041""#, #""\uD834""#, #""\uD834 \uDD1E""#, #""\uD834\\uDD1E""#,
        ] {
            #expect(parseError(json)?.kind == .unpairedSurrogate, "\(json)")
        }
    }

    @Test("raw UTF-8 passes through unchanged")
    func rawUTF8() throws {
        let text = "héllo €uro 𝄞 日本語 😀 \u{7F} \u{10FFFF}"
        #expect(try string("\"" + text + "\"") == text)
        // Mixed with escapes (the slow path).
        #expect(try string("\"é\\n€\\t𝄞\"") == "é\n€\t𝄞")
    }

    @Test("well-formed UTF-8 at the edges of Table 3-7 is accepted")
    func utf8Boundaries() throws {
        let valid: [[UInt8]] = [
            [0x7F], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE0, 0xBF, 0xBF], [0xE1, 0x80, 0x80],
            [0xEC, 0xBF, 0xBF], [0xED, 0x80, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF0, 0x90, 0x80, 0x80], [0xF0, 0xBF, 0xBF, 0xBF], [0xF1, 0x80, 0x80, 0x80], [0xF3, 0xBF, 0xBF, 0xBF],
            [0xF4, 0x80, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ]
        for sequence in valid {
            let decoded = try string(bytes: [0x22] + sequence + [0x22])
            #expect(Array(decoded.utf8) == sequence)
        }
    }

    @Test("malformed UTF-8 is rejected at the first byte of the bad sequence")
    func invalidUTF8() {
        let invalid: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0x80], [0xC0, 0xAF], [0xC1, 0xBF],  // stray continuation, overlong 2
            [0xC2, 0x41], [0xC2, 0xC0], [0xDF, 0x7F],  // bad continuation
            [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong 3
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates encoded in UTF-8
            [0xE1, 0x41, 0x80], [0xE1, 0x80, 0x41], [0xE2, 0x82],  // bad or missing continuation
            [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong 4
            [0xF4, 0x90, 0x80, 0x80], [0xF4, 0xBF, 0xBF, 0xBF],  // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF],  // invalid lead
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFC, 0x84, 0x80, 0x80, 0x80, 0x80],  // 5- and 6-byte forms
            [0xFE], [0xFF], [0xF0, 0x9F, 0x98, 0x41], [0xF0, 0x9F, 0x41],
        ]
        for sequence in invalid {
            for prefix in [[], Array("abcdefghij".utf8), Array("a\\n".utf8)] {
                let input: [UInt8] = [0x5B, 0x22] + prefix + sequence + [0x22, 0x5D]
                #expect(parseError(input) == JSONError(.invalidUTF8, at: 2 + prefix.count), "\(sequence) after \(prefix)")
            }
        }
    }

    @Test("UTF-8 cut off by the end of input is an unexpected end")
    func truncatedUTF8() {
        #expect(parseError([0x22, 0xF0, 0x9F, 0x98]) == JSONError(.unexpectedEnd, at: 4))
        #expect(parseError([0x22, 0xC3]) == JSONError(.unexpectedEnd, at: 2))
    }

    @Test("every raw control character is rejected; DEL is allowed", arguments: 0..<0x20)
    func controlCharacters(_ byte: Int) {
        let input: [UInt8] = Array(#"{"k":"ab"#.utf8) + [UInt8(byte)] + Array(#""}"#.utf8)
        #expect(parseError(input) == JSONError(.controlCharacter, at: 8))
        // In a key too.
        let inKey: [UInt8] = [0x7B, 0x22, UInt8(byte), 0x22, 0x3A, 0x31, 0x7D]
        #expect(parseError(inKey) == JSONError(.controlCharacter, at: 2))
    }

    @Test("DEL (0x7F) needs no escape")
    func delete() throws {
        #expect(try string(bytes: [0x22, 0x7F, 0x22]) == "\u{7F}")
    }

    @Test("special bytes are found at every position of the 8-byte fast scan")
    func fastScanPositions() throws {
        for length in 0..<40 {
            let plain = String(repeating: "a", count: length)
            #expect(try string("\"" + plain + "\"") == plain)
            for position in 0..<length {
                var chars = Array(repeating: UInt8(ascii: "a"), count: length)
                // an escape at `position`
                var withEscape = Array(chars[..<position]) + Array(#"\""#.utf8) + Array(chars[position...])
                #expect(try string(bytes: [0x22] + withEscape + [0x22]) == String(repeating: "a", count: position) + "\"" + String(repeating: "a", count: length - position))
                // a non-ASCII character at `position`
                withEscape = Array(chars[..<position]) + Array("é".utf8) + Array(chars[position...])
                #expect(try string(bytes: [0x22] + withEscape + [0x22]).unicodeScalars.count == length + 1)
                // a control character or an invalid byte at `position`
                chars[position] = 0x0A
                #expect(parseError([0x22] + chars + [0x22]) == JSONError(.controlCharacter, at: 1 + position))
                chars[position] = 0xFF
                #expect(parseError([0x22] + chars + [0x22]) == JSONError(.invalidUTF8, at: 1 + position))
                // the closing quote at `position` leaves the rest as trailing data
                chars[position] = UInt8(ascii: "\"")
                #expect(parseError([0x22] + chars + [0x22]) == JSONError(.trailingData, at: 2 + position))
            }
        }
    }

    @Test("string length limit counts the bytes between the quotes")
    func stringLengthLimit() {
        let limits = JSONParser.Limits(maxStringBytes: 10)
        #expect(parseError("\"" + String(repeating: "x", count: 10) + "\"", limits: limits) == nil)
        #expect(parseError("\"" + String(repeating: "x", count: 11) + "\"", limits: limits) == JSONError(.tooLong, at: 0))
        // Escapes count as written: 12 bytes in the input decode to 2.
        #expect(parseError(#""\u0041\u0042""#, limits: limits) == JSONError(.tooLong, at: 0))
        #expect(parseError("\"ééééé\"", limits: limits) == nil)  // 10 bytes
        #expect(parseError("\"éééééé\"", limits: limits) == JSONError(.tooLong, at: 0))
    }

    @Test("default string limit is 1 MiB")
    func defaultStringLimit() {
        let oneMiB = 1 << 20
        var input = [UInt8](repeating: UInt8(ascii: "s"), count: oneMiB + 2)
        input[0] = 0x22
        input[oneMiB + 1] = 0x22
        #expect(parseError(input) == nil)
        input.insert(UInt8(ascii: "s"), at: 1)
        #expect(parseError(input) == JSONError(.tooLong, at: 0))
    }

    @Test("long strings with escapes decode correctly")
    func longEscapedString() throws {
        var json = "\""
        var expected = ""
        for i in 0..<5000 {
            switch i % 5 {
            case 0: json += "\\n"; expected += "\n"
            case 1: json += "\\u00e9"; expected += "é"
            case 2: json += "plain text "; expected += "plain text "
            case 3: json += "\\uD83D\\uDE00"; expected += "😀"
            default: json += "日"; expected += "日"
            }
        }
        json += "\""
        #expect(try string(json) == expected)
    }

    @Test("keys are decoded like values")
    func keys() throws {
        let value = try JSONParser.parse(#"{"a\nb":1,"\u00e9":2,"𝄞":3,"":4}"#)
        #expect(value.objectValue?.keys == ["a\nb", "é", "𝄞", ""])
        #expect(value["é"]?.intValue == 2)
        #expect(value[""]?.intValue == 4)
    }
}

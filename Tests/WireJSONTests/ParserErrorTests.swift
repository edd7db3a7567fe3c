import Testing
import WireJSON

/// Every error kind the parser reports, with the byte offset it reports it at.
@Suite("Parser errors")
struct ParserErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let input: [UInt8]
        let kind: JSONError.Kind
        let offset: Int
        var limits = JSONParser.Limits()

        init(_ text: String, _ kind: JSONError.Kind, at offset: Int, limits: JSONParser.Limits = .init()) {
            self.input = Array(text.utf8)
            self.kind = kind
            self.offset = offset
            self.limits = limits
        }

        init(bytes: [UInt8], _ kind: JSONError.Kind, at offset: Int) {
            self.input = bytes
            self.kind = kind
            self.offset = offset
        }

        var testDescription: String {
            "\(String(decoding: input.prefix(40), as: UTF8.self).debugDescription) → \(kind) at \(offset)"
        }
    }

    static let cases: [Case] = [
        // empty
        Case("", .empty, at: 0),
        Case(" \t\r\n", .empty, at: 4),
        // unexpectedEnd: the offset is the input length
        Case("[1,2", .unexpectedEnd, at: 4),
        Case("[1,", .unexpectedEnd, at: 3),
        Case("[", .unexpectedEnd, at: 1),
        Case("{", .unexpectedEnd, at: 1),
        Case(#"{"a""#, .unexpectedEnd, at: 4),
        Case(#"{"a":"#, .unexpectedEnd, at: 5),
        Case(#"{"a":1"#, .unexpectedEnd, at: 6),
        Case(#""abc"#, .unexpectedEnd, at: 4),
        Case(#""abc\"#, .unexpectedEnd, at: 5),
        Case(#""\u12"#, .unexpectedEnd, at: 5),
        Case("tru", .unexpectedEnd, at: 3),
        Case("fals", .unexpectedEnd, at: 4),
        Case("n", .unexpectedEnd, at: 1),
        Case(bytes: [0x22, 0xE2, 0x82], .unexpectedEnd, at: 3),
        // unexpectedByte
        Case("x", .unexpectedByte, at: 0),
        Case("  ]", .unexpectedByte, at: 2),
        Case("[1 2]", .unexpectedByte, at: 3),
        Case(#"{"a" 1}"#, .unexpectedByte, at: 5),
        Case("{1:2}", .unexpectedByte, at: 1),
        Case("{,}", .unexpectedByte, at: 1),
        Case("[1,]", .unexpectedByte, at: 3),
        Case("[,1]", .unexpectedByte, at: 1),
        Case(#"{"a":1,}"#, .unexpectedByte, at: 7),
        Case(#"{"a":1;"b":2}"#, .unexpectedByte, at: 6),
        Case("[1}", .unexpectedByte, at: 2),
        Case(#"{"a":1]"#, .unexpectedByte, at: 6),
        Case("trUe", .unexpectedByte, at: 2),
        Case("nul1", .unexpectedByte, at: 3),
        Case("falsy", .unexpectedByte, at: 4),
        Case("NaN", .unexpectedByte, at: 0),
        Case("Infinity", .unexpectedByte, at: 0),
        Case("[-Infinity]", .invalidNumber, at: 2),
        Case("+1", .unexpectedByte, at: 0),
        Case(".5", .unexpectedByte, at: 0),
        Case("'a'", .unexpectedByte, at: 0),
        Case("\u{FEFF}{}", .unexpectedByte, at: 0),
        Case("\u{0C}1", .unexpectedByte, at: 0),
        Case("[\u{A0}1]", .unexpectedByte, at: 1),
        Case("[é]", .unexpectedByte, at: 1),
        // trailingData
        Case("1 2", .trailingData, at: 2),
        Case("{} x", .trailingData, at: 3),
        Case("[1]]", .trailingData, at: 3),
        Case("1a", .trailingData, at: 1),
        Case("0x1F", .trailingData, at: 1),
        Case("1.5.3", .trailingData, at: 3),
        Case("true false", .trailingData, at: 5),
        Case("\"a\"\u{0}", .trailingData, at: 3),
        // invalidUTF8: the offset is the first byte of the bad sequence
        Case(bytes: [0x22, 0xC3, 0x28, 0x22], .invalidUTF8, at: 1),
        Case(bytes: [0x5B, 0x22, 0x61, 0x80, 0x22, 0x5D], .invalidUTF8, at: 3),
        Case(bytes: [0x22, 0xFF, 0x22], .invalidUTF8, at: 1),
        // controlCharacter
        Case("\"\u{1}\"", .controlCharacter, at: 1),
        Case("\"a\nb\"", .controlCharacter, at: 2),
        Case("[\"abcdefghijkl\tm\"]", .controlCharacter, at: 14),
        Case("\"a\\n\u{0}\"", .controlCharacter, at: 4),
        // invalidEscape: the offset is the backslash
        Case(#""\x""#, .invalidEscape, at: 1),
        Case(#""ab\'""#, .invalidEscape, at: 3),
        Case(#""\U0041""#, .invalidEscape, at: 1),
        Case(#""\u12G4""#, .invalidEscape, at: 1),
        Case(#""\u12""#, .invalidEscape, at: 1),
        Case(#""\ """#, .invalidEscape, at: 1),
        // unpairedSurrogate: the offset is the backslash of the offending escape
        Case(#""\uD800""#, .unpairedSurrogate, at: 1),
        Case(#""\uDC00""#, .unpairedSurrogate, at: 1),
        Case(#""ab\uD800\u0041""#, .unpairedSurrogate, at: 3),
        Case(#""\uD800\uD800""#, .unpairedSurrogate, at: 1),
        Case(#""\uD800x""#, .unpairedSurrogate, at: 1),
        Case(#""\uDBFF\n""#, .unpairedSurrogate, at: 1),
        // invalidNumber: the offset is the first byte that breaks the grammar
        Case("01", .invalidNumber, at: 1),
        Case("[-01]", .invalidNumber, at: 3),
        Case("-", .invalidNumber, at: 1),
        Case("-a", .invalidNumber, at: 1),
        Case("--1", .invalidNumber, at: 1),
        Case("1.", .invalidNumber, at: 2),
        Case("[1.]", .invalidNumber, at: 3),
        Case("1.e5", .invalidNumber, at: 2),
        Case("1e", .invalidNumber, at: 2),
        Case("1e+", .invalidNumber, at: 3),
        Case("1E-x", .invalidNumber, at: 3),
        Case("[2.e3]", .invalidNumber, at: 3),
        // nestingTooDeep: the offset is the bracket over the limit
        Case(String(repeating: "[", count: 65) + String(repeating: "]", count: 65), .nestingTooDeep, at: 64),
        Case(String(repeating: #"{"a":"#, count: 65), .nestingTooDeep, at: 64 * 5),
        Case("[[1]]", .nestingTooDeep, at: 1, limits: .init(maxDepth: 1)),
        Case("[]", .nestingTooDeep, at: 0, limits: .init(maxDepth: 0)),
        // tooLong: the offset is the start of the string or number
        Case(#"["abcd"]"#, .tooLong, at: 1, limits: .init(maxStringBytes: 3)),
        Case(#"{"abcd":1}"#, .tooLong, at: 1, limits: .init(maxStringBytes: 3)),
        Case(#"["a\nbc"]"#, .tooLong, at: 1, limits: .init(maxStringBytes: 4)),
        Case("[1,1234]", .tooLong, at: 3, limits: .init(maxNumberLength: 3)),
        Case("-1.5e10", .tooLong, at: 0, limits: .init(maxNumberLength: 6)),
    ]

    @Test("each error kind at its offset", arguments: cases)
    func reportsKindAndOffset(_ testCase: Case) {
        let error = parseError(testCase.input, limits: testCase.limits)
        #expect(error == JSONError(testCase.kind, at: testCase.offset))
    }

    @Test("every kind is covered by the table")
    func everyKindCovered() {
        let covered = Set(Self.cases.map(\.kind))
        #expect(covered == Set(JSONError.Kind.allCases))
    }

    @Test("limits exactly at the bound are accepted")
    func limitsAtTheBound() {
        #expect(parsed(Array(#"["abc"]"#.utf8)) != nil)
        #expect(parseError(#"["abc"]"#, limits: .init(maxStringBytes: 3)) == nil)
        #expect(parseError("[123]", limits: .init(maxNumberLength: 3)) == nil)
        #expect(parseError("[[1]]", limits: .init(maxDepth: 2)) == nil)
        #expect(parseError("1", limits: .init(maxDepth: 0)) == nil)
    }

    @Test("descriptions are plain words with the offset")
    func descriptions() {
        #expect(JSONError(.invalidUTF8, at: 12).description == "invalid UTF-8 at byte 12")
        #expect(JSONError(.unexpectedEnd, at: 3).description == "unexpected end of input at byte 3")
        #expect(JSONError(.trailingData, at: 7).description == "unexpected data after the JSON value at byte 7")
        #expect(JSONError(.empty, at: 0).description == "empty input: no JSON value")
        for kind in JSONError.Kind.allCases where kind != .empty {
            #expect(JSONError(kind, at: 5).description.hasSuffix(" at byte 5"))
        }
        #expect("\(JSONError(.nestingTooDeep, at: 64))" == "arrays or objects nested too deeply at byte 64")
    }

    @Test("errors are values: equal when kind and offset are")
    func errorEquality() {
        #expect(JSONError(.invalidNumber, at: 1) == JSONError(.invalidNumber, at: 1))
        #expect(JSONError(.invalidNumber, at: 1) != JSONError(.invalidNumber, at: 2))
        #expect(JSONError(.invalidNumber, at: 1) != JSONError(.invalidEscape, at: 1))
        #expect(Set([JSONError(.empty, at: 0), JSONError(.empty, at: 0)]).count == 1)
    }

    @Test("typed throws carry the error through every overload")
    func typedThrows() {
        do {
            _ = try JSONParser.parse("[1,")
            Issue.record("accepted")
        } catch {
            // `error` is statically a JSONError.
            #expect(error.kind == .unexpectedEnd)
        }
    }
}

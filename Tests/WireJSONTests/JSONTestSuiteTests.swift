import Foundation
import Testing
import WireJSON

/// The parser against every file of JSONTestSuite's `test_parsing`: `y_` accepted, `n_`
/// rejected quickly, `i_` decided as documented on `JSONParser`.
@Suite("JSONTestSuite")
struct JSONTestSuiteTests {
    /// What the parser does with an implementation-defined (`i_`) file; mirrors the table in
    /// the doc comment of `JSONParser`.
    enum Expected: Sendable, CustomStringConvertible {
        /// Parses; the array's only element is a number with this int64Value and doubleValue.
        case acceptNumber(int64: Int64?, double: Double)
        /// Parses; the array's only element is a number with no int64Value and this
        /// doubleValue up to a relative error of 1e-12.
        case acceptBigNumber(approximately: Double)
        /// Rejected with this kind (and offset, when given).
        case reject(JSONError.Kind, offset: Int? = nil)

        var description: String {
            switch self {
            case .acceptNumber(let int64, let double): "accept number int64=\(String(describing: int64)) double=\(double)"
            case .acceptBigNumber(let double): "accept number double≈\(double)"
            case .reject(let kind, let offset): "reject \(kind) at \(String(describing: offset))"
            }
        }
    }

    static let implementationDefined: [String: Expected] = [
        "i_number_double_huge_neg_exp.json": .acceptNumber(int64: nil, double: 0),
        "i_number_huge_exp.json": .acceptNumber(int64: nil, double: .infinity),
        "i_number_neg_int_huge_exp.json": .acceptNumber(int64: nil, double: -.infinity),
        "i_number_pos_double_huge_exp.json": .acceptNumber(int64: nil, double: .infinity),
        "i_number_real_neg_overflow.json": .acceptNumber(int64: nil, double: -.infinity),
        "i_number_real_pos_overflow.json": .acceptNumber(int64: nil, double: .infinity),
        "i_number_real_underflow.json": .acceptNumber(int64: nil, double: 0),
        "i_number_too_big_neg_int.json": .acceptBigNumber(approximately: -123123123123123123123123123123.0),
        "i_number_too_big_pos_int.json": .acceptNumber(int64: nil, double: 1e20),
        "i_number_very_big_negative_int.json": .acceptBigNumber(
            approximately: -237462374673276894279832749832423479823246327846.0),
        "i_object_key_lone_2nd_surrogate.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_1st_surrogate_but_2nd_missing.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_1st_valid_surrogate_2nd_invalid.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_incomplete_surrogate_and_escape_valid.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_incomplete_surrogate_pair.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_incomplete_surrogates_escape_valid.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_invalid_lonely_surrogate.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_invalid_surrogate.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_inverted_surrogates_U+1D11E.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_lone_second_surrogate.json": .reject(.unpairedSurrogate, offset: 2),
        "i_string_UTF-8_invalid_sequence.json": .reject(.invalidUTF8, offset: 7),
        "i_string_UTF8_surrogate_U+D800.json": .reject(.invalidUTF8, offset: 2),
        "i_string_invalid_utf-8.json": .reject(.invalidUTF8, offset: 2),
        "i_string_iso_latin_1.json": .reject(.invalidUTF8, offset: 2),
        "i_string_lone_utf8_continuation_byte.json": .reject(.invalidUTF8, offset: 2),
        "i_string_not_in_unicode_range.json": .reject(.invalidUTF8, offset: 2),
        "i_string_overlong_sequence_2_bytes.json": .reject(.invalidUTF8, offset: 2),
        "i_string_overlong_sequence_6_bytes.json": .reject(.invalidUTF8, offset: 2),
        "i_string_overlong_sequence_6_bytes_null.json": .reject(.invalidUTF8, offset: 2),
        "i_string_truncated-utf-8.json": .reject(.invalidUTF8, offset: 2),
        "i_string_UTF-16LE_with_BOM.json": .reject(.unexpectedByte, offset: 0),
        "i_string_utf16BE_no_BOM.json": .reject(.unexpectedByte, offset: 0),
        "i_string_utf16LE_no_BOM.json": .reject(.unexpectedByte, offset: 1),
        "i_structure_UTF-8_BOM_empty_object.json": .reject(.unexpectedByte, offset: 0),
        "i_structure_500_nested_arrays.json": .reject(.nestingTooDeep, offset: 64),
    ]

    @Test("the bundled suite is complete")
    func bundleIsComplete() {
        #expect(TestSuiteFiles.names(prefix: "y_").count == 95)
        #expect(TestSuiteFiles.names(prefix: "n_").count == 188)
        #expect(TestSuiteFiles.names(prefix: "i_").count == 35)
    }

    @Test("every i_ file has a decision and every decision a file")
    func decisionTableMatchesFiles() {
        #expect(Set(TestSuiteFiles.names(prefix: "i_")) == Set(Self.implementationDefined.keys))
    }

    @Test("y_ files are accepted", arguments: TestSuiteFiles.names(prefix: "y_"))
    func accepts(_ name: String) throws {
        let bytes = TestSuiteFiles.bytes(name)
        let value = try JSONParser.parse(bytes)
        // What we accept we can write back and read again unchanged.
        #expect(try JSONParser.parse(value.encoded()) == value)
    }

    @Test("n_ files are rejected quickly", arguments: TestSuiteFiles.names(prefix: "n_"))
    func rejects(_ name: String) {
        let bytes = TestSuiteFiles.bytes(name)
        let clock = ContinuousClock()
        var error: JSONError?
        let elapsed = clock.measure { error = parseError(bytes) }
        #expect(error != nil, "\(name) was accepted")
        if let error {
            #expect(error.offset >= 0 && error.offset <= bytes.count)
        }
        // Generous for a debug build on a busy machine; a hang or quadratic blow-up on the
        // 100,000-bracket files would take far longer.
        #expect(elapsed < .milliseconds(500), "\(name) took \(elapsed)")
    }

    @Test("i_ files follow the documented decisions", arguments: TestSuiteFiles.names(prefix: "i_"))
    func implementationDefined(_ name: String) throws {
        let expected = try #require(Self.implementationDefined[name], "no decision for \(name)")
        let result = parseResult(TestSuiteFiles.bytes(name))
        switch expected {
        case .acceptNumber(let int64, let double):
            let number = try #require(try result.get()[0]?.numberValue)
            #expect(number.int64Value == int64)
            #expect(number.doubleValue == double)
        case .acceptBigNumber(let approximately):
            let number = try #require(try result.get()[0]?.numberValue)
            #expect(number.int64Value == nil)
            #expect(abs(number.doubleValue - approximately) <= abs(approximately) * 1e-12)
        case .reject(let kind, let offset):
            guard case .failure(let error) = result else {
                Issue.record("\(name) was accepted, expected \(expected)")
                return
            }
            #expect(error.kind == kind)
            if let offset { #expect(error.offset == offset) }
        }
    }

    @Test("the 100,000 opening brackets are refused at the depth limit")
    func hundredThousandBrackets() {
        let bytes = TestSuiteFiles.bytes("n_structure_100000_opening_arrays.json")
        #expect(parseError(bytes) == JSONError(.nestingTooDeep, at: 64))
    }

    @Test("test_transform edge cases")
    func transformCases() throws {
        func parse(_ name: String) -> Result<JSONValue, JSONError> {
            parseResult(TestSuiteFiles.bytes(name, in: "test_transform"))
        }
        func number(_ name: String) throws -> JSONNumber {
            try #require(try parse(name).get()[0]?.numberValue, "\(name)")
        }
        #expect(try number("number_-9223372036854775808.json").int64Value == .min)
        #expect(try number("number_-9223372036854775809.json").int64Value == nil)
        #expect(try number("number_9223372036854775807.json").int64Value == .max)
        #expect(try number("number_9223372036854775808.json").int64Value == nil)
        #expect(try number("number_1.0.json").int64Value == 1)
        #expect(try number("number_1.0.json").text == "1.0")
        #expect(try number("number_1.000000000000000005.json").int64Value == nil)
        #expect(try number("number_1.000000000000000005.json").doubleValue == 1)
        #expect(try number("number_1000000000000000.json").int64Value == 1_000_000_000_000_000)
        #expect(try number("number_10000000000000000999.json").int64Value == nil)
        #expect(try number("number_10000000000000000999.json").text == "10000000000000000999")
        #expect(try number("number_1e-999.json").doubleValue == 0)
        #expect(try number("number_1e6.json").int64Value == 1_000_000)

        // NFC and NFD keys are different keys.
        for name in ["object_key_nfc_nfd.json", "object_key_nfd_nfc.json"] {
            let object = try #require(try parse(name).get().objectValue)
            #expect(object.count == 2)
            #expect(object["\u{E9}"] == "NFC")
            #expect(object["e\u{301}"] == "NFD")
        }
        // Duplicates: all kept, the last wins.
        #expect(try parse("object_same_key_different_values.json").get()["a"] == 2)
        #expect(try parse("object_same_key_same_value.json").get().objectValue?.count == 2)
        #expect(try parse("object_same_key_unclear_values.json").get()["a"]?.numberValue?.text == "-0")

        for name in [
            "string_1_escaped_invalid_codepoint.json", "string_2_escaped_invalid_codepoints.json",
            "string_3_escaped_invalid_codepoints.json",
        ] {
            #expect(parseError(TestSuiteFiles.bytes(name, in: "test_transform"))?.kind == .unpairedSurrogate)
        }
        for name in ["string_1_invalid_codepoint.json", "string_2_invalid_codepoints.json", "string_3_invalid_codepoints.json"] {
            #expect(parseError(TestSuiteFiles.bytes(name, in: "test_transform"))?.kind == .invalidUTF8)
        }
        #expect(try parse("string_with_escaped_NULL.json").get()[0] == "A\u{0}B")
    }
}

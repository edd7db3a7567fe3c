import SeededRandom
import Testing
import WireJSON

/// Numbers: the grammar, exact text, `int64Value` and `doubleValue`.
@Suite("Parser numbers")
struct ParserNumberTests {
    private func number(_ text: String) throws -> JSONNumber {
        try #require(try JSONParser.parse(text).numberValue, "\(text) is not a number")
    }

    struct IntegerCase: Sendable, CustomTestStringConvertible {
        let text: String
        let int64: Int64?
        var testDescription: String { "\(text) → \(int64.map(String.init) ?? "nil")" }
    }

    static let integerCases: [IntegerCase] = [
        .init(text: "0", int64: 0),
        .init(text: "-0", int64: 0),
        .init(text: "-0.0", int64: 0),
        .init(text: "0e999999999999999999", int64: 0),
        .init(text: "0.000e-5", int64: 0),
        .init(text: "2", int64: 2),
        .init(text: "2.0", int64: 2),
        .init(text: "2e0", int64: 2),
        .init(text: "2.000E+0", int64: 2),
        .init(text: "1e2", int64: 100),
        .init(text: "1E2", int64: 100),
        .init(text: "1e+2", int64: 100),
        .init(text: "100e-2", int64: 1),
        .init(text: "1.5e1", int64: 15),
        .init(text: "0.1e1", int64: 1),
        .init(text: "10e-1", int64: 1),
        .init(text: "-12.50e1", int64: -125),
        .init(text: "1e18", int64: 1_000_000_000_000_000_000),
        .init(text: "-1e18", int64: -1_000_000_000_000_000_000),
        .init(text: "9223372036854775807", int64: .max),
        .init(text: "-9223372036854775808", int64: .min),
        .init(text: "9223372036854775807.000", int64: .max),
        .init(text: "9.223372036854775807e18", int64: .max),
        .init(text: "-9.223372036854775808e18", int64: .min),
        .init(text: "922337203685477580.7e1", int64: .max),
        .init(text: "0009", int64: nil),  // not even a number: see the grammar test
        .init(text: "12345678901234567890e-1", int64: 1_234_567_890_123_456_789),
        .init(text: "000000000000000000000000000000000000000001", int64: nil),
        // not integers
        .init(text: "2.5", int64: nil),
        .init(text: "1.25e1", int64: nil),
        .init(text: "1e-1", int64: nil),
        .init(text: "0.5", int64: nil),
        .init(text: "123456789012345678901234567890e-11", int64: nil),
        // integers that do not fit
        .init(text: "9223372036854775808", int64: nil),
        .init(text: "-9223372036854775809", int64: nil),
        .init(text: "9.223372036854775808e18", int64: nil),
        .init(text: "1e19", int64: nil),
        .init(text: "1e400", int64: nil),
        .init(text: "-1e400", int64: nil),
        .init(text: "18446744073709551616", int64: nil),
        .init(text: "100000000000000000000000000000000", int64: nil),
        .init(text: "1e1000000000000", int64: nil),
    ]

    @Test("int64Value is exact", arguments: integerCases)
    func int64Value(_ testCase: IntegerCase) throws {
        guard let number = JSONNumber(text: testCase.text) else {
            // Only the deliberately invalid texts get here.
            #expect(parseError(testCase.text)?.kind == .invalidNumber)
            return
        }
        #expect(number.int64Value == testCase.int64)
        #expect(try self.number(testCase.text).int64Value == testCase.int64)
    }

    @Test("doubleValue, including overflow to infinity and underflow to zero")
    func doubleValue() throws {
        #expect(try number("0.1").doubleValue == 0.1)
        #expect(try number("1.5e300").doubleValue == 1.5e300)
        #expect(try number("-2.5E-3").doubleValue == -0.0025)
        #expect(try number("1e400").doubleValue == .infinity)
        #expect(try number("-1e400").doubleValue == -.infinity)
        #expect(try number("1e-400").doubleValue == 0)
        #expect(try number("1.7976931348623157e308").doubleValue == .greatestFiniteMagnitude)
        #expect(try number("4.9406564584124654e-324").doubleValue == .leastNonzeroMagnitude)
        #expect(try number("123456789012345").doubleValue == 123_456_789_012_345)
        #expect(try number("-999999999999999").doubleValue == -999_999_999_999_999)
        #expect(try number("1234567890123456789").doubleValue == 1.2345678901234568e18)
        #expect(try number("9007199254740993").doubleValue == 9_007_199_254_740_992.0)  // round to even
        #expect(try number("1" + String(repeating: "0", count: 400)).doubleValue == .infinity)
        let minusZero = try number("-0").doubleValue
        #expect(minusZero == 0 && minusZero.sign == .minus)
        #expect(try number("0").doubleValue.sign == .plus)
    }

    @Test("the source text is kept exactly")
    func textIsKept() throws {
        for text in ["1.0", "1E+2", "-0", "0.10", "1e-0005", "123456789012345678901234567890"] {
            #expect(try number(text).text == text)
            #expect(String(decoding: try JSONParser.parse(text).encoded(), as: UTF8.self) == text)
        }
        // Equality is by text: compare int64Value or doubleValue for numeric equality.
        #expect(try number("1.0") != number("1"))
        #expect(try number("1.0").int64Value == number("1").int64Value)
    }

    @Test("the grammar: valid texts")
    func validGrammar() {
        for text in ["0", "-0", "1", "-1", "10", "0.5", "-0.5", "1e5", "1E5", "1e+5", "1e-5", "1.5e05", "0e0", "123.456e-789"] {
            #expect(JSONNumber(text: text)?.text == text, "\(text)")
            #expect(parseError(text) == nil, "\(text)")
        }
    }

    @Test("the grammar: invalid texts")
    func invalidGrammar() {
        let invalid = [
            "", "-", "+1", "01", "-01", "00", ".5", "1.", "1.e1", "1e", "1e+", "1e-", "0x10", "1f", "NaN", "Infinity",
            "-Infinity", "inf", "nan", "1_000", "١", "1,5", "--1", "1e1.5", "1ee5",
        ]
        for text in invalid {
            #expect(JSONNumber(text: text) == nil, "\(text)")
            #expect(parseError(text) != nil, "\(text)")
        }
        // Whitespace is the document's business, not the number's.
        #expect(JSONNumber(text: " 1") == nil)
        #expect(JSONNumber(text: "1\n") == nil)
    }

    @Test("number length limit: default 1000 characters")
    func numberLengthLimit() {
        let atLimit = String(repeating: "7", count: 1000)
        #expect(parseError(atLimit) == nil)
        #expect(parseError("[" + atLimit + "1]") == JSONError(.tooLong, at: 1))
        let value = parsed("[" + atLimit + "]")
        #expect(value?[0]?.int64Value == nil)
        #expect(value?[0]?.doubleValue == .infinity)
    }

    @Test("numbers built from integers and doubles")
    func builtNumbers() {
        #expect(JSONNumber(Int64.min).text == "-9223372036854775808")
        #expect(JSONNumber(Int64.max).int64Value == .max)
        #expect(JSONNumber(42).text == "42")
        #expect(JSONNumber(4.5).text == "4.5")
        #expect(JSONNumber(0.1).text == "0.1")
        #expect(JSONNumber(1e-05).text == "1e-05")
        #expect(JSONNumber(1e16).text == "1e+16")
        #expect(JSONNumber(2.0).int64Value == 2)
        #expect(JSONNumber(1e16).int64Value == 10_000_000_000_000_000)
        #expect(JSONNumber(0.1).doubleValue == 0.1)
        #expect(JSONNumber(Double.infinity).doubleValue == .infinity)
        #expect(JSONNumber(-Double.infinity).doubleValue == -.infinity)
        #expect(JSONNumber(Double.nan).doubleValue.isNaN)
        #expect(JSONNumber(Double.nan).int64Value == nil)
        #expect(JSONNumber(Double.infinity).int64Value == nil)
        let literal: JSONNumber = 7
        #expect(literal.intValue == 7)
        let floatLiteral: JSONNumber = 2.5
        #expect(floatLiteral.text == "2.5")
    }

    @Test("Double round trip through the shortest text")
    func doubleRoundTrip() throws {
        var rng = SplitMix64(seed: 0xD0_0B1E)
        for _ in 0..<2000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            let text = JSONNumber(value).text
            #expect(JSONNumber(text: text) != nil, "\(text) is not JSON")
            let reparsed = try number(text)
            #expect(reparsed.doubleValue == value || (reparsed.doubleValue == 0 && value == 0))
            #expect(reparsed.doubleValue.sign == value.sign)
        }
    }

    @Test("Int64 round trip")
    func int64RoundTrip() throws {
        var rng = SplitMix64(seed: 0x1_64)
        for _ in 0..<2000 {
            let value = Int64(bitPattern: rng.next()) >> (rng.next() % 64)
            #expect(try number(String(value)).int64Value == value)
            #expect(JSONNumber(value).int64Value == value)
        }
    }
}

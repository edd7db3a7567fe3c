import Domain
import Persistence
import Testing

@Suite("TaxRate")
struct TaxRateTests {
    @Test(arguments: [
        ("0.08", 80_000),
        ("0.0825", 82_500),
        ("1", 1_000_000),
        ("0", 0),
        ("0.000001", 1),
        ("0.5", 500_000),
        ("1.000000", 1_000_000),
        ("00.08", 80_000),
    ])
    func decimalTextParsesExactlyToPartsPerMillion(text: String, ppm: Int) {
        #expect(TaxRate(decimal: text)?.partsPerMillion == ppm)
    }

    @Test(arguments: ["", ".5", "1.", "-0.1", "1.5", "0.1234567", "0.0000001", "0.1000000", "abc", "0,08", " 0.08", "0.08 ", "+0.08", "1e-2", "0..1", "1.000001", "٠.٠٨"])
    func malformedOrOutOfRangeDecimalTextIsRefused(_ text: String) {
        #expect(TaxRate(decimal: text) == nil)
    }

    @Test func partsPerMillionMustLieBetweenZeroAndOneMillion() {
        #expect(TaxRate(partsPerMillion: 0)?.partsPerMillion == 0)
        #expect(TaxRate(partsPerMillion: 1_000_000)?.partsPerMillion == 1_000_000)
        #expect(TaxRate(partsPerMillion: -1) == nil)
        #expect(TaxRate(partsPerMillion: 1_000_001) == nil)
    }

    @Test(arguments: [
        (20_000, 1250, 25),   // 25.0 exact
        (20_000, 1025, 20),   // 20.5 → 20 (even)
        (20_000, 1075, 22),   // 21.5 → 22 (even)
        (20_000, 1125, 22),   // 22.5 → 22
        (20_000, 1175, 24),   // 23.5 → 24
        (20_000, 1024, 20),   // 20.48
        (20_000, 1026, 21),   // 20.52
        (80_000, 1500, 120),
        (80_000, 1, 0),       // 0.08
        (500_000, 1, 0),      // 0.5 → 0 (even)
        (500_000, 3, 2),      // 1.5 → 2 (even)
        (500_000, 5, 2),      // 2.5 → 2 (even)
        (82_500, 1000, 82),   // 82.5 → 82 (even)
        (0, 123_456, 0),
        (1_000_000, 123_456, 123_456),
        (80_000, 0, 0),
    ])
    func taxRoundsHalfToEven(ppm: Int, amount: Int, expected: Int) throws {
        let rate = try #require(TaxRate(partsPerMillion: ppm))
        let exact = Double(amount) * Double(ppm) / 1_000_000
        // Cross-check the expectation against the mathematical definition.
        #expect(Double(expected) == exact.rounded(.toNearestOrEven))
        #expect(rate.tax(on: amount) == expected)
    }

    @Test func taxOnHugeAmountsDoesNotOverflow() throws {
        let rate = try #require(TaxRate(partsPerMillion: 999_999))
        let amount = 100_000_000_000_000_000 // 1e17 minor units
        #expect(rate.tax(on: amount) == 99_999_900_000_000_000)
    }

    @Test(arguments: [(80_000, "0.08"), (82_500, "0.0825"), (0, "0"), (1_000_000, "1"), (1, "0.000001"), (500_000, "0.5")])
    func decimalTextIsTheShortestExactFormAndParsesBack(ppm: Int, text: String) throws {
        let rate = try #require(TaxRate(partsPerMillion: ppm))
        #expect(rate.decimalText == text)
        #expect(TaxRate(decimal: rate.decimalText) == rate)
    }

    @Test func fixedTaxRateAlwaysAnswersItsRate() throws {
        let rate = try #require(TaxRate(decimal: "0.0825"))
        #expect(FixedTaxRate(rate).currentTaxRate() == rate)
    }
}

@Suite("Money and Currency")
struct MoneyAndCurrencyTests {
    @Test(arguments: [
        (1250, "USD", "USD 12.50"),
        (5, "EUR", "EUR 0.05"),
        (-5, "GBP", "GBP -0.05"),
        (1200, "JPY", "JPY 1200"),
        (0, "USD", "USD 0.00"),
        (100_000, "USD", "USD 1000.00"),
    ])
    func moneyIsFormattedWithTheMinorUnitDigits(minor: Int, code: String, expected: String) throws {
        let currency = try #require(Currency(code: code))
        #expect(Money(minorUnits: minor, currency: currency).formatted == expected)
    }

    @Test func requiredCurrenciesAreSupportedWithTheirMinorUnits() {
        #expect(Currency(code: "USD") == .usd)
        #expect(Currency(code: "EUR") == .eur)
        #expect(Currency(code: "GBP") == .gbp)
        #expect(Currency(code: "JPY") == .jpy)
        #expect(Currency.usd.minorUnitDigits == 2)
        #expect(Currency.jpy.minorUnitDigits == 0)
    }

    @Test(arguments: ["XYZ", "usd", "", "EURO"])
    func unknownOrLowerCaseCodesAreNotCurrencies(_ code: String) {
        #expect(Currency(code: code) == nil)
    }
}

/// An ISO 4217 currency the platform accepts, with the number of digits of its minor unit.
public struct Currency: Sendable, Hashable, CustomStringConvertible {
    /// The three-letter ISO 4217 code, upper case.
    public let code: String
    /// Digits after the decimal point of the minor unit (2 for USD cents, 0 for JPY).
    public let minorUnitDigits: Int

    private init(code: String, minorUnitDigits: Int) {
        self.code = code
        self.minorUnitDigits = minorUnitDigits
    }

    /// The supported currency with this exact upper-case code, or `nil`.
    public init?(code: String) {
        guard let known = Currency.supported.first(where: { $0.code == code }) else { return nil }
        self = known
    }

    /// The code, e.g. "USD".
    public var description: String { code }

    /// US dollar.
    public static let usd = Currency(code: "USD", minorUnitDigits: 2)
    /// Euro.
    public static let eur = Currency(code: "EUR", minorUnitDigits: 2)
    /// Pound sterling.
    public static let gbp = Currency(code: "GBP", minorUnitDigits: 2)
    /// Japanese yen.
    public static let jpy = Currency(code: "JPY", minorUnitDigits: 0)

    /// Every currency the platform accepts.
    public static let supported: [Currency] = [
        .usd, .eur, .gbp, .jpy,
        Currency(code: "CHF", minorUnitDigits: 2),
        Currency(code: "CAD", minorUnitDigits: 2),
        Currency(code: "AUD", minorUnitDigits: 2),
        Currency(code: "SEK", minorUnitDigits: 2),
        Currency(code: "NOK", minorUnitDigits: 2),
        Currency(code: "DKK", minorUnitDigits: 2),
        Currency(code: "CNY", minorUnitDigits: 2),
        Currency(code: "KRW", minorUnitDigits: 0),
    ]
}

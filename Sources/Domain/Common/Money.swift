/// An amount of money in integer minor units (cents, pence, yen) of one currency.
public struct Money: Sendable, Hashable {
    /// The amount in minor units.
    public let minorUnits: Int
    /// The currency of the amount.
    public let currency: Currency

    /// Creates an amount in minor units of `currency`.
    public init(minorUnits: Int, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// The amount for people, e.g. "USD 12.50" or "JPY 1200".
    public var formatted: String {
        let digits = currency.minorUnitDigits
        guard digits > 0 else { return "\(currency.code) \(minorUnits)" }
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let magnitude = minorUnits.magnitude
        let major = magnitude / UInt(scale)
        var minor = String(magnitude % UInt(scale))
        while minor.count < digits { minor = "0" + minor }
        return "\(currency.code) \(minorUnits < 0 ? "-" : "")\(major).\(minor)"
    }
}

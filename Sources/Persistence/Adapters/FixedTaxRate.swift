import Domain

/// A tax rate set once, from configuration.
public struct FixedTaxRate: TaxRateProvider {
    /// The rate applied to every order.
    public let rate: TaxRate

    /// A provider that always answers `rate`.
    public init(_ rate: TaxRate) {
        self.rate = rate
    }

    /// The configured rate.
    public func currentTaxRate() -> TaxRate { rate }
}

/// Supplies the tax rate applied to new orders (configured per deployment).
public protocol TaxRateProvider: Sendable {
    /// The rate to apply to an order placed now.
    func currentTaxRate() -> TaxRate
}

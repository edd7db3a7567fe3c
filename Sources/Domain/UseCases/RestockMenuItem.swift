/// Adds units to a menu item's stock.
public struct RestockMenuItem: Sendable {
    private let menu: any MenuRepository

    /// Creates the use case.
    public init(menu: any MenuRepository) {
        self.menu = menu
    }

    /// Quantity outside 1…1,000,000,000 [invalid_input]; unknown item [not_found]; a stock that
    /// would exceed 1,000,000,000 (``MenuItem/stocks``) [business_rule], nothing changed.
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(itemId: MenuItemID, quantity: Int, claim: IdempotencyClaim? = nil) async throws -> MenuItem {
        let quantity = try Validate.integer(quantity, field: "quantity", in: MenuItem.restockQuantities)
        let maximum = MenuItem.stocks.upperBound
        switch try await menu.restock(itemId: itemId, quantity: quantity, maximumStock: maximum, claim: claim) {
        case .restocked(let item):
            return item
        case .notFound:
            throw DomainError.notFound(entity: "menu item", id: itemId.rawValue)
        case .beyondMaximum(let stock):
            throw DomainError.businessRule(.stockAboveMaximum(itemId: itemId, stock: stock, quantity: quantity, maximum: maximum))
        }
    }
}

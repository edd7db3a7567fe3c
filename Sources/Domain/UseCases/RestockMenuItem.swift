/// Adds units to a menu item's stock.
public struct RestockMenuItem: Sendable {
    private let menu: any MenuRepository

    /// Creates the use case.
    public init(menu: any MenuRepository) {
        self.menu = menu
    }

    /// Quantity outside 1…1,000,000,000 [invalid_input]; unknown item [not_found].
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(itemId: MenuItemID, quantity: Int, claim: IdempotencyClaim? = nil) async throws -> MenuItem {
        let quantity = try Validate.integer(quantity, field: "quantity", in: MenuItem.restockQuantities)
        guard let item = try await menu.restock(itemId: itemId, quantity: quantity, claim: claim) else {
            throw DomainError.notFound(entity: "menu item", id: itemId.rawValue)
        }
        return item
    }
}

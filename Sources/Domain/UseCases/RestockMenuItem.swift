/// Adds units to a menu item's stock.
public struct RestockMenuItem: Sendable {
    private let menu: any MenuRepository

    /// Creates the use case.
    public init(menu: any MenuRepository) {
        self.menu = menu
    }

    /// Quantity outside 1…1,000,000,000 [invalid_input]; unknown item [not_found].
    public func execute(itemId: MenuItemID, quantity: Int) async throws -> MenuItem {
        let quantity = try Validate.integer(quantity, field: "quantity", in: MenuItem.restockQuantities)
        guard let item = try await menu.restock(itemId: itemId, quantity: quantity) else {
            throw DomainError.notFound(entity: "menu item", id: itemId.rawValue)
        }
        return item
    }
}

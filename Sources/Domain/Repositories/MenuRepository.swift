/// Stores menu items and their stock.
public protocol MenuRepository: Sendable {
    /// Stores a new item.
    func insert(_ item: MenuItem) async throws
    /// The item with this id.
    func item(id: MenuItemID) async throws -> MenuItem?
    /// The items with these ids, in the order given; unknown ids are skipped.
    func items(ids: [MenuItemID]) async throws -> [MenuItem]
    /// A restaurant's items ordered by name (byte-wise), then id.
    func menu(of restaurantId: RestaurantID) async throws -> [MenuItem]
    /// Adds `quantity` to the item's stock atomically; `nil` when the item does not exist.
    func restock(itemId: MenuItemID, quantity: Int) async throws -> MenuItem?
}

/// Stores menu items and their stock.
public protocol MenuRepository: Sendable {
    /// Stores a new item, binding `claim` to it in the same step.
    func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws
    /// The item with this id.
    func item(id: MenuItemID) async throws -> MenuItem?
    /// The items with these ids, in the order given; unknown ids are skipped.
    func items(ids: [MenuItemID]) async throws -> [MenuItem]
    /// A restaurant's items ordered by name (byte-wise), then id.
    func menu(of restaurantId: RestaurantID) async throws -> [MenuItem]
    /// Adds `quantity` to the item's stock atomically; `nil` when the item does not exist.
    /// Binds `claim` to the restocked item in the same step.
    func restock(itemId: MenuItemID, quantity: Int, claim: IdempotencyClaim?) async throws -> MenuItem?
}

extension MenuRepository {
    /// ``insert(_:claim:)`` without an idempotency key.
    public func insert(_ item: MenuItem) async throws {
        try await insert(item, claim: nil)
    }

    /// ``restock(itemId:quantity:claim:)`` without an idempotency key.
    public func restock(itemId: MenuItemID, quantity: Int) async throws -> MenuItem? {
        try await restock(itemId: itemId, quantity: quantity, claim: nil)
    }
}

import Domain

/// Menu items and their stock held in memory, in the ``InMemoryInventory`` that
/// ``InMemoryOrderRepository`` places orders in: an order takes stock in the same actor step that
/// stores it.
///
/// A struct that forwards each call to that actor. Its methods are `nonisolated(nonsending)`, so
/// a call changes executors only into the actor and back, as a call on the actor itself would.
public struct InMemoryMenuRepository: MenuRepository {
    /// What it answers from memory: every read of it (it holds everything).
    public var heldReads: Set<RepositoryRead> { [.menuItems] }

    private let inventory: InMemoryInventory

    /// The menu face of `inventory`.
    init(inventory: InMemoryInventory) {
        self.inventory = inventory
    }

    /// Stores a new item.
    public nonisolated(nonsending) func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws {
        try await inventory.insert(item, claim: claim)
    }

    /// The item with this id.
    public nonisolated(nonsending) func item(id: MenuItemID) async -> MenuItem? {
        await inventory.item(id: id)
    }

    /// The items with these ids, in the order given.
    public nonisolated(nonsending) func items(ids: [MenuItemID]) async -> [MenuItem] {
        await inventory.items(ids: ids)
    }

    /// A restaurant's items by name, then id.
    public nonisolated(nonsending) func menu(of restaurantId: RestaurantID) async -> [MenuItem] {
        await inventory.menu(of: restaurantId)
    }

    /// Adds to an item's stock unless that would take it past `maximumStock`.
    public nonisolated(nonsending) func restock(
        itemId: MenuItemID, quantity: Int, maximumStock: Int, claim: IdempotencyClaim?
    ) async throws -> RestockOutcome {
        try await inventory.restock(itemId: itemId, quantity: quantity, maximumStock: maximumStock, claim: claim)
    }
}

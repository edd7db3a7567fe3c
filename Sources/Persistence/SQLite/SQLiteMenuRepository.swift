import Domain
import GRDB

/// Menu items and their stock in SQLite. A restock is one conditional increment in a write
/// transaction; orders, which take stock, are ``SQLiteOrderRepository``'s, on the same store.
///
/// A struct: it holds no state of its own (the database does). Every method is
/// `nonisolated(nonsending)`: a call runs on its caller's executor, without a switch to the
/// generic executor and back.
public struct SQLiteMenuRepository: MenuRepository {
    /// None: every read waits for the database.
    public var heldReads: Set<RepositoryRead> { [] }

    private let store: SQLiteStore

    /// Menu items of `store`.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Stores a new item; returns once durable.
    public nonisolated(nonsending) func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws {
        let record = MenuItemRecord(item)
        let event = store.prepare(.menuItemAdded(item))
        try await store.write(boundTo: claim) { db in
            try db.insert(record)
            return ((), .changed(.menuItem(item), prepared: event))
        }
    }

    /// The item with this id.
    public nonisolated(nonsending) func item(id: MenuItemID) async throws -> MenuItem? {
        try await store.read { db in
            try db.record(MenuItemRecord.self, Self.selectItem, [id.rawValue])?.item()
        }
    }

    /// The items with these ids, in the order given; unknown ids are skipped.
    public nonisolated(nonsending) func items(ids: [MenuItemID]) async throws -> [MenuItem] {
        try await store.read { db in
            try ids.compactMap { id in try db.record(MenuItemRecord.self, Self.selectItem, [id.rawValue])?.item() }
        }
    }

    /// A restaurant's items by name (byte-wise), then id.
    public nonisolated(nonsending) func menu(of restaurantId: RestaurantID) async throws -> [MenuItem] {
        try await store.read { db in
            try db.records(
                MenuItemRecord.self, "SELECT \(MenuItemRecord.selection) FROM menu_items WHERE restaurant_id = ? ORDER BY name, id",
                [restaurantId.rawValue]
            ).map { try $0.item() }
        }
    }

    /// Adds to an item's stock unless that would take it past `maximumStock` (a conditional
    /// update); returns once durable.
    public nonisolated(nonsending) func restock(itemId: MenuItemID, quantity: Int, maximumStock: Int, claim: IdempotencyClaim?) async throws -> RestockOutcome {
        try await store.write(boundTo: claim) { db in
            try db.run(
                "UPDATE menu_items SET stock = stock + :quantity WHERE id = :id AND stock <= :maximum - :quantity",
                ["quantity": quantity, "id": itemId.rawValue, "maximum": maximumStock]
            )
            let restocked = db.changesCount == 1
            guard let item = try db.record(MenuItemRecord.self, Self.selectItem, [itemId.rawValue])?.item() else {
                return (.notFound, nil)
            }
            guard restocked else { return (.beyondMaximum(stock: item.stock), nil) }
            return (.restocked(item), .changed(.menuItem(item), .menuItemRestocked(item)))
        }
    }

    /// An item by id.
    private static let selectItem = "SELECT \(MenuItemRecord.selection) FROM menu_items WHERE id = ?"
}

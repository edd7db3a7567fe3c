import Domain
import PostgresNIO

/// Menu items and their stock in PostgreSQL. A restock is one atomic, conditional
/// `UPDATE … SET stock = stock + quantity`; orders, which take stock, are
/// ``PostgresOrderRepository``'s, on the same database.
///
/// A struct: it holds no state of its own.
public struct PostgresMenuRepository: MenuRepository {
    /// None: every read waits for the database.
    public var heldReads: Set<RepositoryRead> { [] }

    private let store: PostgresStore

    /// Menu items of `store`.
    public init(store: PostgresStore) {
        self.store = store
    }

    /// Stores a new item; returns once committed.
    public func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws {
        let insert = try Self.insert.query(MenuItemRecord(item))
        try await store.writeOne(claim: claim) { connection, logger in
            try await connection.run(insert, logger)
            return ((), .changed(.menuItem(item), .menuItemAdded(item)))
        }
    }

    /// The item with this id.
    public func item(id: MenuItemID) async throws -> MenuItem? {
        try await store.read { connection, logger in
            try await connection.row(
                "SELECT \(unescaped: MenuItemRecord.postgresSelection) FROM menu_items WHERE id = \(id.rawValue)", logger, { try MenuItemRecord($0).item() }
            )
        }
    }

    /// The items with these ids, in the order given; unknown ids are skipped.
    public func items(ids: [MenuItemID]) async throws -> [MenuItem] {
        guard !ids.isEmpty else { return [] }
        let found = try await store.read { connection, logger in
            try await connection.rows(SelectItems.self, logger, binding: { $0.append(ids.map(\.rawValue)) }) { try MenuItemRecord($0).item() }
        }
        let byId = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byId[$0] }
    }

    /// A restaurant's items by name (byte-wise), then id.
    public func menu(of restaurantId: RestaurantID) async throws -> [MenuItem] {
        try await store.read { connection, logger in
            try await connection.rows(
                "SELECT \(unescaped: MenuItemRecord.postgresSelection) FROM menu_items WHERE restaurant_id = \(restaurantId.rawValue) ORDER BY name, id",
                logger
            ) { try MenuItemRecord($0).item() }
        }
    }

    /// Adds to an item's stock unless that would take it past `maximumStock`, in one conditional
    /// statement; returns once committed. (When it changed nothing, a read tells a missing item
    /// from a full one: items are never deleted, so that answer cannot be wrong.)
    public func restock(itemId: MenuItemID, quantity: Int, maximumStock: Int, claim: IdempotencyClaim?) async throws -> RestockOutcome {
        try await store.writeOne(claim: claim) { connection, logger in
            if let item = try await connection.rows(Restock.self, logger, binding: { bindings in
                bindings.append(quantity)
                bindings.append(itemId.rawValue)
                bindings.append(maximumStock)
            }, { try MenuItemRecord($0).item() }).first {
                return (.restocked(item), .changed(.menuItem(item), .menuItemRestocked(item)))
            }
            let held = try await connection.rows(SelectItems.self, logger, binding: { $0.append([itemId.rawValue]) }) { try MenuItemRecord($0).item() }.first
            return (held.map { .beyondMaximum(stock: $0.stock) } ?? .notFound, nil)
        }
    }

    /// AddMenuItem's new row.
    private static let insert = PostgresStatement<MenuItemRecord> { s in s.insert { $0 } }
}

/// Items by id (PlaceOrder's prices and currencies).
private enum SelectItems: PreparedSQL {
    static let name = "svc_select_items"
    static let sql = "SELECT \(MenuItemRecord.postgresSelection) FROM menu_items WHERE id = ANY($1::text[])"
}

/// RestockMenuItem: one conditional increment (never past the maximum stock).
private enum Restock: PreparedSQL {
    static let name = "svc_restock"
    static let sql = "UPDATE menu_items SET stock = stock + $1 WHERE id = $2 AND stock <= $3 - $1 RETURNING \(MenuItemRecord.postgresSelection)"
}

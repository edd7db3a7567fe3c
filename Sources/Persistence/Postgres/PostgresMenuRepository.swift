import Domain
import PostgresNIO

/// Menu items and their stock in PostgreSQL. A restock is one atomic, conditional
/// `UPDATE … SET stock = stock + quantity`; orders, which take stock, are
/// ``PostgresOrderRepository``'s, on the same database.
///
/// A struct: the database holds the state; the only state of its own is the reads by id
/// waiting to go together (``PostgresRowLookup``).
public struct PostgresMenuRepository: MenuRepository {
    /// None: every read waits for the database.
    public var heldReads: Set<RepositoryRead> { [] }

    private let store: PostgresStore
    private let byId: PostgresRowLookup<MenuItemRecord, MenuItem>

    /// Menu items of `store`.
    public init(store: PostgresStore) {
        self.store = store
        let hints = store.stockHints
        byId = PostgresRowLookup(store: store, one: SelectItem.self, many: SelectItems.self, id: \.id) { record in
            let item = try record.item()
            // PlaceOrder reads its items just before it places the order, which expects this stock.
            hints.saw(item.id.rawValue, stock: item.stock)
            return item
        }
    }

    /// Stores a new item; returns once committed.
    public func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws {
        let insert = try Self.insert.query(MenuItemRecord(item))
        try await store.writeOne(claim: claim) { connection, logger in
            try await connection.run(insert, logger)
            return ((), .changed(.menuItem(item), .menuItemAdded(item)))
        }
    }

    /// Reads by id waiting to go together in the next statement (for tests).
    var readsWaitingTogether: Int {
        byId.waitingCount
    }

    /// The item with this id (read together with others asked meanwhile).
    public func item(id: MenuItemID) async throws -> MenuItem? {
        try await byId(id.rawValue)
    }

    /// The items with these ids, in the order given; unknown ids are skipped (read together
    /// with others asked meanwhile).
    public func items(ids: [MenuItemID]) async throws -> [MenuItem] {
        guard !ids.isEmpty else { return [] }
        return try await byId(ids.map(\.rawValue)).compactMap { $0 }
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
                store.stockHints.saw(item.id.rawValue, stock: item.stock)
                return (.restocked(item), .changed(.menuItem(item), .menuItemRestocked(item)))
            }
            let held = try await connection.rows(SelectItems.self, logger, binding: { $0.append([itemId.rawValue]) }) { try MenuItemRecord($0).item() }.first
            return (held.map { .beyondMaximum(stock: $0.stock) } ?? .notFound, nil)
        }
    }

    /// AddMenuItem's new row.
    private static let insert = PostgresStatement<MenuItemRecord> { s in s.insert { $0 } }
}

/// An item by id, for a read of one item (``PostgresRowLookup``).
private enum SelectItem: PreparedSQL {
    static let name = "svc_select_item"
    static let sql = "SELECT \(MenuItemRecord.postgresSelection) FROM menu_items WHERE id = $1"
}

/// Items by id (PlaceOrder's prices and currencies), for reads asked together.
private enum SelectItems: PreparedSQL {
    static let name = "svc_select_items"
    static let sql = "SELECT \(MenuItemRecord.postgresSelection) FROM menu_items WHERE id = ANY($1::text[])"
}

/// RestockMenuItem: one conditional increment (never past the maximum stock).
private enum Restock: PreparedSQL {
    static let name = "svc_restock"
    static let sql = "UPDATE menu_items SET stock = stock + $1 WHERE id = $2 AND stock <= $3 - $1 RETURNING \(MenuItemRecord.postgresSelection)"
}

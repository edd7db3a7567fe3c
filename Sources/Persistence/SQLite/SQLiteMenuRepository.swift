import Domain
import GRDB

/// Menu items, their stock and orders in SQLite. Placing an order checks and takes the stock of
/// every line and stores the order in one write transaction (all or nothing); the `stock >= 0`
/// CHECK constraint is a last line of defence that no code path relies on.
public actor SQLiteMenuRepository: MenuRepository, OrderRepository {
    private let store: SQLiteStore

    /// Menu items and orders of `store`.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Stores a new item; returns once durable.
    public func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws {
        try await store.write(boundTo: claim) { db in
            try db.run("INSERT INTO menu_items (\(MenuItemRecord.columns)) VALUES (?, ?, ?, ?, ?, ?)", MenuItemRecord.arguments(item))
            return ((), .menuItem(item))
        }
    }

    /// The item with this id.
    public func item(id: MenuItemID) async throws -> MenuItem? {
        try await store.read { db in
            try db.row("SELECT \(MenuItemRecord.columns) FROM menu_items WHERE id = ?", [id.rawValue]).map(MenuItemRecord.item)
        }
    }

    /// The items with these ids, in the order given; unknown ids are skipped.
    public func items(ids: [MenuItemID]) async throws -> [MenuItem] {
        try await store.read { db in
            try ids.compactMap { id in
                try db.row("SELECT \(MenuItemRecord.columns) FROM menu_items WHERE id = ?", [id.rawValue]).map(MenuItemRecord.item)
            }
        }
    }

    /// A restaurant's items by name (byte-wise), then id.
    public func menu(of restaurantId: RestaurantID) async throws -> [MenuItem] {
        try await store.read { db in
            try db.rows(
                "SELECT \(MenuItemRecord.columns) FROM menu_items WHERE restaurant_id = ? ORDER BY name, id",
                [restaurantId.rawValue]
            ).map(MenuItemRecord.item)
        }
    }

    /// Adds to an item's stock unless that would take it past `maximumStock` (a conditional
    /// update); returns once durable.
    public func restock(itemId: MenuItemID, quantity: Int, maximumStock: Int, claim: IdempotencyClaim?) async throws -> RestockOutcome {
        try await store.write(boundTo: claim) { db in
            try db.run("UPDATE menu_items SET stock = stock + ? WHERE id = ? AND stock <= ? - ?", [quantity, itemId.rawValue, maximumStock, quantity])
            guard let item = try db.row("SELECT \(MenuItemRecord.columns) FROM menu_items WHERE id = ?", [itemId.rawValue]).map(MenuItemRecord.item) else {
                return (.notFound, nil)
            }
            guard db.changesCount == 1 else { return (.beyondMaximum(stock: item.stock), nil) }
            return (.restocked(item), .menuItem(item))
        }
    }

    /// Takes every line's stock and stores the order, or changes nothing; returns once durable.
    public func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome {
        try await store.write(boundTo: claim) { db in
            for line in order.lines {
                guard let stock = try Int.fetchOne(db.cachedStatement(sql: "SELECT stock FROM menu_items WHERE id = ?"), arguments: [line.itemId.rawValue]) else {
                    return (.unknownItem(line.itemId), nil)
                }
                guard line.quantity <= stock else {
                    return (.insufficientStock(itemId: line.itemId, requested: line.quantity, available: stock), nil)
                }
            }
            for line in order.lines {
                // Conditional, so stock can never go below zero even if the check above were wrong.
                try db.run("UPDATE menu_items SET stock = stock - ? WHERE id = ? AND stock >= ?", [line.quantity, line.itemId.rawValue, line.quantity])
                guard db.changesCount == 1 else { throw StoreError.inconsistentWrite("stock of \(line.itemId) changed inside its own transaction") }
            }
            try db.run("INSERT INTO orders (\(OrderRecord.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)", OrderRecord.arguments(order))
            for arguments in OrderRecord.lineArguments(order) {
                try db.run("INSERT INTO order_lines (\(OrderRecord.lineColumns)) VALUES (?, ?, ?, ?, ?)", arguments)
            }
            return (.placed(order), .order(order))
        }
    }

    /// The order with this id.
    public func order(id: OrderID) async throws -> Order? {
        try await store.read { db in
            let rows = try db.rows("SELECT \(OrderRecord.columns) FROM orders WHERE id = ?", [id.rawValue])
            return try OrderRecord.orders(from: rows, db).first
        }
    }

    /// A user's orders, newest first, strictly after `after`.
    public func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async throws -> [Order] {
        try await store.read { db in
            let rows = try db.newestFirst(OrderRecord.columns, from: "orders", where: "user_id = ?", [userId.rawValue], after: after, limit: limit)
            return try OrderRecord.orders(from: rows, db)
        }
    }
}

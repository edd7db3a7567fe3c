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
        let record = MenuItemRecord(item)
        try await store.write(boundTo: claim) { db in
            try db.insert(record)
            return ((), .menuItem(item))
        }
    }

    /// The item with this id.
    public func item(id: MenuItemID) async throws -> MenuItem? {
        try await store.read { db in
            try db.record(MenuItemRecord.self, Self.selectItem, [id.rawValue])?.item()
        }
    }

    /// The items with these ids, in the order given; unknown ids are skipped.
    public func items(ids: [MenuItemID]) async throws -> [MenuItem] {
        try await store.read { db in
            try ids.compactMap { id in try db.record(MenuItemRecord.self, Self.selectItem, [id.rawValue])?.item() }
        }
    }

    /// A restaurant's items by name (byte-wise), then id.
    public func menu(of restaurantId: RestaurantID) async throws -> [MenuItem] {
        try await store.read { db in
            try db.records(
                MenuItemRecord.self, "SELECT \(MenuItemRecord.selection) FROM menu_items WHERE restaurant_id = ? ORDER BY name, id",
                [restaurantId.rawValue]
            ).map { try $0.item() }
        }
    }

    /// Adds to an item's stock unless that would take it past `maximumStock` (a conditional
    /// update); returns once durable.
    public func restock(itemId: MenuItemID, quantity: Int, maximumStock: Int, claim: IdempotencyClaim?) async throws -> RestockOutcome {
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
            return (.restocked(item), .menuItem(item))
        }
    }

    /// Takes every line's stock and stores the order, or changes nothing; returns once durable.
    public func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome {
        let record = OrderRecord(order), lines = OrderLineRecord.lines(of: order)
        return try await store.write(boundTo: claim) { db in
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
                try db.run(
                    "UPDATE menu_items SET stock = stock - :quantity WHERE id = :id AND stock >= :quantity",
                    ["quantity": line.quantity, "id": line.itemId.rawValue]
                )
                guard db.changesCount == 1 else { throw StoreError.inconsistentWrite("stock of \(line.itemId) changed inside its own transaction") }
            }
            try db.insert(record)
            for line in lines { try db.insert(line) }
            return (.placed(order), .order(order))
        }
    }

    /// The order with this id.
    public func order(id: OrderID) async throws -> Order? {
        try await store.read { db in
            let records = try db.records(OrderRecord.self, "SELECT \(OrderRecord.selection) FROM orders WHERE id = ?", [id.rawValue])
            return try Self.orders(records, db).first
        }
    }

    /// A user's orders, newest first, strictly after `after`.
    public func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async throws -> [Order] {
        try await store.read { db in
            let rows = try db.newestFirst(OrderRecord.selection, from: "orders", where: "user_id = ?", [userId.rawValue], after: after, limit: limit)
            return try Self.orders(rows.map(OrderRecord.init(row:)), db)
        }
    }

    /// The orders of `records` with their lines (one more query), keeping the records' order.
    private static func orders(_ records: [OrderRecord], _ db: Database) throws -> [Order] {
        guard !records.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: records.count).joined(separator: ",")
        let lines = try OrderLineRecord.fetchAll(
            db, sql: "SELECT \(OrderLineRecord.selection) FROM order_lines WHERE order_id IN (\(placeholders)) ORDER BY order_id, position",
            arguments: StatementArguments(records.map(\.id))
        )
        let linesByOrder = Dictionary(grouping: lines, by: \.orderId)
        return try records.map { try $0.order(lines: linesByOrder[$0.id] ?? []) }
    }

    /// An item by id.
    private static let selectItem = "SELECT \(MenuItemRecord.selection) FROM menu_items WHERE id = ?"
}

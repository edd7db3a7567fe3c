import Domain
import PostgresNIO

/// Menu items, their stock and orders in PostgreSQL. Placing an order locks the rows of its
/// items (`SELECT … FOR UPDATE`, in id order so that concurrent orders cannot deadlock), checks
/// every line's stock, takes it with a conditional `UPDATE … WHERE stock >= quantity` and stores
/// the order, all in one transaction: all or nothing, never below zero, whichever instances
/// take orders at once. A restock is one atomic `UPDATE … SET stock = stock + quantity`.
///
/// A struct: it holds no state of its own.
public struct PostgresMenuRepository: MenuRepository, OrderRepository {
    private let store: PostgresStore

    /// Menu items and orders of `store`.
    public init(store: PostgresStore) {
        self.store = store
    }

    /// Stores a new item; returns once committed.
    public func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws {
        try await store.writeOne(claim: claim) { connection, logger in
            try await connection.run(
                """
                INSERT INTO menu_items (\(unescaped: MenuItemRecord.columns))
                VALUES (\(item.id.rawValue), \(item.restaurantId.rawValue), \(item.name), \(item.price.minorUnits),
                        \(item.price.currency.code), \(item.stock))
                """,
                logger
            )
            return ((), .menuItem(item))
        }
    }

    /// The item with this id.
    public func item(id: MenuItemID) async throws -> MenuItem? {
        try await store.read { connection, logger in
            try await connection.row("SELECT \(unescaped: MenuItemRecord.columns) FROM menu_items WHERE id = \(id.rawValue)", logger, MenuItemRecord.item)
        }
    }

    /// The items with these ids, in the order given; unknown ids are skipped.
    public func items(ids: [MenuItemID]) async throws -> [MenuItem] {
        guard !ids.isEmpty else { return [] }
        let found = try await store.read { connection, logger in
            try await connection.rows(SelectItems.self, logger, binding: { $0.append(ids.map(\.rawValue)) }, MenuItemRecord.item)
        }
        let byId = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byId[$0] }
    }

    /// A restaurant's items by name (byte-wise), then id.
    public func menu(of restaurantId: RestaurantID) async throws -> [MenuItem] {
        try await store.read { connection, logger in
            try await connection.rows(
                "SELECT \(unescaped: MenuItemRecord.columns) FROM menu_items WHERE restaurant_id = \(restaurantId.rawValue) ORDER BY name, id",
                logger, MenuItemRecord.item
            )
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
            }, MenuItemRecord.item).first {
                return (.restocked(item), .menuItem(item))
            }
            let held = try await connection.rows(SelectItems.self, logger, binding: { $0.append([itemId.rawValue]) }, MenuItemRecord.item).first
            return (held.map { .beyondMaximum(stock: $0.stock) } ?? .notFound, nil)
        }
    }

    /// Takes every line's stock and stores the order, or changes nothing; returns once committed.
    public func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome {
        try await store.write(claim: claim) { connection, logger in
            let ids = order.lines.map(\.itemId.rawValue)
            var stock: [String: Int] = [:]
            for (id, available) in try await connection.rows(LockItems.self, logger, binding: { $0.append(ids) }, { try $0.decode((String, Int).self) }) {
                stock[id] = available
            }
            for line in order.lines {
                guard let available = stock[line.itemId.rawValue] else { return (.unknownItem(line.itemId), nil) }
                guard line.quantity <= available else {
                    return (.insufficientStock(itemId: line.itemId, requested: line.quantity, available: available), nil)
                }
            }
            let taken = try await connection.rows(TakeStockAndStoreOrder.self, logger) { bindings in
                bindings.append(ids)
                bindings.append(order.lines.map(\.quantity))
                bindings.append(order.lines.map(\.unitPriceCents))
                bindings.append(order.id.rawValue)
                bindings.append(order.userId.rawValue)
                bindings.append(order.currency.code)
                bindings.append(order.discountCents)
                bindings.append(order.taxCents)
                bindings.append(order.deliveryAddress)
                bindings.append(order.createdAt.millisecondsSinceEpoch)
            }
            guard try taken.first?.decode(Int.self) == order.lines.count else {
                throw StoreError.inconsistentWrite("stock of order \(order.id) changed under its own row locks")
            }
            return (.placed(order), .order(order))
        }
    }

    /// The order with this id.
    public func order(id: OrderID) async throws -> Order? {
        try await store.read { connection, logger in
            let rows = try await connection.rows("SELECT \(unescaped: OrderRecord.columns) FROM orders WHERE id = \(id.rawValue)", logger)
            return try await Self.orders(from: rows, connection, logger).first
        }
    }

    /// A user's orders, newest first, strictly after `after`.
    public func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async throws -> [Order] {
        try await store.read { connection, logger in
            let rows = try await connection.rows(
                PostgresNewestFirst(
                    columns: OrderRecord.columns, table: "orders", filter: "user_id = $1", filterArguments: [userId.rawValue], after: after, limit: limit
                ).sql,
                logger
            )
            return try await Self.orders(from: rows, connection, logger)
        }
    }

    /// The orders of `rows` with their lines (one more query), keeping the rows' order.
    private static func orders(from rows: [PostgresRow], _ connection: PostgresConnection, _ logger: Logger) async throws -> [Order] {
        guard !rows.isEmpty else { return [] }
        let orderIds = try rows.map { try PostgresRandomAccessRow($0)["id"].decode(String.self) }
        var linesByOrder: [String: [PostgresRow]] = [:]
        for line in try await connection.rows(
            "SELECT \(unescaped: OrderRecord.lineColumns) FROM order_lines WHERE order_id = ANY(\(orderIds)) ORDER BY order_id, position", logger
        ) {
            linesByOrder[try PostgresRandomAccessRow(line)["order_id"].decode(String.self), default: []].append(line)
        }
        return try zip(rows, orderIds).map { row, id in try OrderRecord.order(from: row, lines: linesByOrder[id] ?? []) }
    }
}

/// Items by id (PlaceOrder's prices and currencies).
private enum SelectItems: PreparedSQL {
    static let name = "svc_select_items"
    static let sql = "SELECT \(MenuItemRecord.columns) FROM menu_items WHERE id = ANY($1::text[])"
}

/// RestockMenuItem: one conditional increment (never past the maximum stock).
private enum Restock: PreparedSQL {
    static let name = "svc_restock"
    static let sql = "UPDATE menu_items SET stock = stock + $1 WHERE id = $2 AND stock <= $3 - $1 RETURNING \(MenuItemRecord.columns)"
}

/// PlaceOrder's first step: lock the order's items, in id order so concurrent orders cannot
/// deadlock, and read their stock.
private enum LockItems: PreparedSQL {
    static let name = "svc_lock_items"
    static let sql = "SELECT id, stock FROM menu_items WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE"
}

/// PlaceOrder's second step, one statement: take every line's stock, conditionally (so stock can
/// never go below zero even if the check before were wrong), and store the order and its lines;
/// returns how many lines' stock was taken. $1 item ids, $2 quantities, $3 unit prices (line
/// order), $4… the order's columns.
private enum TakeStockAndStoreOrder: PreparedSQL {
    static let name = "svc_place_order"
    static let sql = """
        WITH taken AS (
            UPDATE menu_items AS m SET stock = m.stock - l.quantity
            FROM unnest($1::text[], $2::bigint[]) AS l(id, quantity)
            WHERE m.id = l.id AND m.stock >= l.quantity RETURNING m.id
        ), placed AS (
            INSERT INTO orders (\(OrderRecord.columns)) VALUES ($4, $5, $6, $7, $8, $9, $10)
        ), lines AS (
            INSERT INTO order_lines (\(OrderRecord.lineColumns))
            SELECT $4, l.position - 1, l.item_id, l.quantity, l.unit_price
            FROM unnest($1::text[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS l(item_id, quantity, unit_price, position)
        )
        SELECT count(*)::bigint FROM taken
        """
}

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
        let insert = try Self.insert.query(MenuItemRecord(item))
        try await store.writeOne(claim: claim) { connection, logger in
            try await connection.run(insert, logger)
            return ((), .menuItem(item))
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
                return (.restocked(item), .menuItem(item))
            }
            let held = try await connection.rows(SelectItems.self, logger, binding: { $0.append([itemId.rawValue]) }) { try MenuItemRecord($0).item() }.first
            return (held.map { .beyondMaximum(stock: $0.stock) } ?? .notFound, nil)
        }
    }

    /// Takes every line's stock and stores the order, or changes nothing; returns once committed.
    public func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome {
        let placed = PlacedOrder(order: OrderRecord(order), lines: OrderLineRecord.lines(of: order))
        return try await store.write(claim: claim) { connection, logger in
            var stock: [String: Int] = [:]
            for (id, available) in try await connection.rows(LockItems.self, logger, binding: { $0.append(order.lines.map(\.itemId.rawValue)) }, {
                try $0.decode((String, Int).self)
            }) {
                stock[id] = available
            }
            for line in order.lines {
                guard let available = stock[line.itemId.rawValue] else { return (.unknownItem(line.itemId), nil) }
                guard line.quantity <= available else {
                    return (.insufficientStock(itemId: line.itemId, requested: line.quantity, available: available), nil)
                }
            }
            let taken = try await connection.rows(TakeStockAndStoreOrder.self, logger) { try TakeStockAndStoreOrder.statement.bind(placed, to: &$0) }
            guard try taken.first?.decode(Int.self) == order.lines.count else {
                throw StoreError.inconsistentWrite("stock of order \(order.id) changed under its own row locks")
            }
            return (.placed(order), .order(order))
        }
    }

    /// The order with this id.
    public func order(id: OrderID) async throws -> Order? {
        try await store.read { connection, logger in
            let rows = try await connection.rows("SELECT \(unescaped: OrderRecord.postgresSelection) FROM orders WHERE id = \(id.rawValue)", logger)
            return try await Self.orders(from: rows, connection, logger).first
        }
    }

    /// A user's orders, newest first, strictly after `after`.
    public func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async throws -> [Order] {
        try await store.read { connection, logger in
            let rows = try await connection.rows(
                PostgresNewestFirst(
                    columns: OrderRecord.postgresSelection, table: "orders", filter: "user_id = $1", filterArguments: [userId.rawValue], after: after,
                    limit: limit
                ).sql,
                logger
            )
            return try await Self.orders(from: rows, connection, logger)
        }
    }

    /// The orders of `rows` with their lines (one more query), keeping the rows' order.
    private static func orders(from rows: [PostgresRow], _ connection: PostgresConnection, _ logger: Logger) async throws -> [Order] {
        guard !rows.isEmpty else { return [] }
        let records = try rows.map(OrderRecord.init)
        let lines = try await connection.rows(
            """
            SELECT \(unescaped: OrderLineRecord.postgresSelection) FROM order_lines WHERE order_id = ANY(\(records.map(\.id)))
            ORDER BY order_id, position
            """,
            logger, OrderLineRecord.init
        )
        let linesByOrder = Dictionary(grouping: lines, by: \.orderId)
        return try records.map { try $0.order(lines: linesByOrder[$0.id] ?? []) }
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

/// An order's rows: what ``TakeStockAndStoreOrder`` binds.
private struct PlacedOrder: Sendable {
    let order: OrderRecord
    let lines: [OrderLineRecord]
}

/// PlaceOrder's first step: lock the order's items, in id order so concurrent orders cannot
/// deadlock, and read their stock.
private enum LockItems: PreparedSQL {
    static let name = "svc_lock_items"
    static let sql = "SELECT id, stock FROM menu_items WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE"
}

/// PlaceOrder's second step, one statement: take every line's stock, conditionally (so stock can
/// never go below zero even if the check before were wrong), and store the order and its lines;
/// returns how many lines' stock was taken.
private enum TakeStockAndStoreOrder: PreparedSQL {
    static let name = "svc_place_order"
    static let statement = PostgresStatement<PlacedOrder> { s in
        """
        WITH line AS (
            \(s.rows { $0.lines })
        ), taken AS (
            UPDATE menu_items AS m SET stock = m.stock - line.quantity FROM line
            WHERE m.id = line.item_id AND m.stock >= line.quantity RETURNING m.id
        ), placed AS (
            \(s.insert { $0.order })
        ), lines AS (
            INSERT INTO order_lines (\(OrderLineRecord.postgresSelection)) SELECT \(OrderLineRecord.postgresSelection) FROM line
        )
        SELECT count(*)::bigint FROM taken
        """
    }
    static var sql: String { statement.sql }
}

import Domain
import PostgresNIO

/// Orders in PostgreSQL. Placing one locks the rows of its items (`SELECT … FOR UPDATE`, in id
/// order so that concurrent orders cannot deadlock), checks every line's stock, takes it with a
/// conditional `UPDATE … WHERE stock >= quantity` and stores the order, all in one transaction on
/// the database the menu items are in: all or nothing, never below zero, whichever instances take
/// orders at once.
///
/// A struct: it holds no state of its own.
public struct PostgresOrderRepository: OrderRepository {
    /// None: every read waits for the database.
    public var heldReads: Set<RepositoryRead> { [] }

    private let store: PostgresStore

    /// Orders of `store`, taking stock from its menu items.
    public init(store: PostgresStore) {
        self.store = store
    }

    /// Takes every line's stock and stores the order, or changes nothing; returns once committed.
    public func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome {
        let encoder = store.eventEncoder, clock = store.clock
        return try await store.write(claim: claim) { connection, logger in
            var stock: [String: Int] = [:]
            for (id, available) in try await connection.rows(LockItems.self, logger, binding: { $0.append(order.lines.map(\.itemId.rawValue)) }, {
                try $0.decode((String, Int).self)
            }) {
                stock[id] = available
            }
            var left: [ItemStock] = []
            for line in order.lines {
                guard let available = stock[line.itemId.rawValue] else { return (.unknownItem(line.itemId), nil) }
                guard line.quantity <= available else {
                    return (.insufficientStock(itemId: line.itemId, requested: line.quantity, available: available), nil)
                }
                left.append(ItemStock(itemId: line.itemId, stock: available - line.quantity))
            }
            // The event (with the stock each item has left) goes in the same statement.
            let event = encoder.map { EventRecord($0.encode(.orderPlaced(order, stock: left)), key: order.id.rawValue, at: clock.now()) }
            let placed = PlacedOrder(order: OrderRecord(order), lines: OrderLineRecord.lines(of: order), event: event)
            let taken: [PostgresRow]
            if event == nil {
                taken = try await connection.rows(TakeStockAndStoreOrder.self, logger) { try TakeStockAndStoreOrder.statement.bind(placed, to: &$0) }
            } else {
                taken = try await connection.rows(TakeStockStoreOrderAndAnnounce.self, logger) { try TakeStockStoreOrderAndAnnounce.statement.bind(placed, to: &$0) }
            }
            guard try taken.first?.decode(Int.self) == order.lines.count else {
                throw StoreError.inconsistentWrite("stock of order \(order.id) changed under its own row locks")
            }
            return (.placed(order), .changed(.order(order), appended: event != nil))
        }
    }

    /// Cancels the order as `decide` judges it and returns its lines' stock, in one transaction:
    /// the order's row is locked first, then its items' rows in id order as PlaceOrder locks
    /// them, so racing cancellations return the stock once and nothing deadlocks.
    public func cancel(id: OrderID, claim: IdempotencyClaim?, _ decide: @escaping @Sendable (Order) throws -> Order) async throws -> OrderCancellationOutcome {
        try await store.write(claim: claim) { connection, logger in
            let rows = try await connection.rows("SELECT \(unescaped: OrderRecord.postgresSelection) FROM orders WHERE id = \(id.rawValue) FOR UPDATE", logger)
            guard let stored = try await Self.orders(from: rows, connection, logger).first else { return (.notFound, nil) }
            let decided = try decide(stored)
            guard decided != stored else { return (.stored(stored), .unchanged(.order(stored))) }
            try stored.checkCancellation(decided)
            _ = try await connection.rows(LockItems.self, logger, binding: { $0.append(decided.lines.map(\.itemId.rawValue)) })
            let cancelled = try await connection.rows(
                """
                UPDATE orders SET status = \(decided.status.rawValue), cancelled_at = \(decided.cancelledAt?.millisecondsSinceEpoch)
                WHERE id = \(id.rawValue) AND status = \(Order.Status.placed.rawValue) RETURNING id
                """,
                logger
            )
            guard cancelled.count == 1 else { throw StoreError.inconsistentWrite("order \(id) changed under its own row lock") }
            var stock: [String: Int] = [:]
            for (itemId, left) in try await connection.rows(
                """
                UPDATE menu_items AS m SET stock = m.stock + l.quantity
                FROM unnest(\(decided.lines.map(\.itemId.rawValue))::text[], \(decided.lines.map(\.quantity))::bigint[]) AS l(id, quantity)
                WHERE m.id = l.id RETURNING m.id, m.stock
                """,
                logger, { try $0.decode((String, Int).self) }
            ) {
                stock[itemId] = left
            }
            let after = try decided.lines.map { line in
                guard let left = stock[line.itemId.rawValue] else { throw StoreError.inconsistentWrite("item \(line.itemId) of order \(id) is missing") }
                return ItemStock(itemId: line.itemId, stock: left)
            }
            return (.stored(decided), .changed(.order(decided), .orderCancelled(decided, stock: after)))
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
}

/// An order's rows: what ``TakeStockAndStoreOrder`` binds, and its event's for
/// ``TakeStockStoreOrderAndAnnounce``.
private struct PlacedOrder: Sendable {
    let order: OrderRecord
    let lines: [OrderLineRecord]
    let event: EventRecord?
}

/// PlaceOrder's first step: lock the order's items, in id order so concurrent orders cannot
/// deadlock, and read their stock.
private enum LockItems: PreparedSQL {
    static let name = "svc_lock_items"
    static let sql = "SELECT id, stock FROM menu_items WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE"
}

/// PlaceOrder's second step, one statement: take every line's stock, conditionally (so stock can
/// never go below zero even if the check before were wrong), and store the order and its lines
/// (and, `announcing`, its event: after the items' row locks, like every event); returns how many
/// lines' stock was taken.
private func takeStockAndStoreOrder(announcing: Bool) -> PostgresStatement<PlacedOrder> {
    PostgresStatement<PlacedOrder> { s in
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
        )\(announcing ? ", announced AS (\n    \(s.insert { $0.event! })\n)" : "")
        SELECT count(*)::bigint FROM taken
        """
    }
}

/// ``takeStockAndStoreOrder(announcing:)`` for a write that appends no event.
private enum TakeStockAndStoreOrder: PreparedSQL {
    static let name = "svc_place_order"
    static let statement = takeStockAndStoreOrder(announcing: false)
    static var sql: String { statement.sql }
}

/// ``takeStockAndStoreOrder(announcing:)`` for a write that appends the order's event.
private enum TakeStockStoreOrderAndAnnounce: PreparedSQL {
    static let name = "svc_place_order_announced"
    static let statement = takeStockAndStoreOrder(announcing: true)
    static var sql: String { statement.sql }
}

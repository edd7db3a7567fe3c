import Domain
import PostgresNIO

/// Orders in PostgreSQL. Placing one locks the rows of its items (`SELECT … FOR UPDATE`, in id
/// order so that concurrent orders cannot deadlock), checks every line's stock, takes it with a
/// conditional `UPDATE … WHERE stock >= quantity` and stores the order, all in one transaction on
/// the database the menu items are in: all or nothing, never below zero, whichever instances take
/// orders at once.
///
/// An order without an idempotency key whose items' stock this instance saw lately
/// (``StockHints``: PlaceOrder reads its items just before) goes as one statement, one round
/// trip instead of four: it locks the items the same way and takes their stock and stores the
/// order only if every item still has exactly the stock expected, which also makes the stock
/// its event reports known before the statement runs. When one has not, the statement writes
/// nothing, the hints learn the stock it found, and the order goes the long way.
///
/// A struct: its only state is the store's stock hints.
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
        if claim == nil, let placed = try await placeAsExpected(order) {
            return placed
        }
        let encoder = store.eventEncoder, clock = store.clock, hints = store.stockHints
        return try await store.write(claim: claim) { connection, logger in
            var stock: [String: Int] = [:]
            for (id, available) in try await connection.rows(LockItems.self, logger, binding: { $0.append(order.lines.map(\.itemId.rawValue)) }, {
                try $0.decode((String, Int).self)
            }) {
                stock[id] = available
            }
            hints.saw(stock)
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
            hints.saw(left)
            return (.placed(order), .changed(.order(order), appended: event != nil))
        }
    }

    /// The order placed in one statement that expects the stock last seen of its items; `nil`
    /// (nothing written) when some item's stock was not seen here, was too low when seen (the
    /// long way decides, and says how much there is), or is not what was seen.
    private func placeAsExpected(_ order: Order) async throws -> OrderPlacementOutcome? {
        let ids = order.lines.map(\.itemId.rawValue)
        guard let expected = store.stockHints.expected(ids), !zip(order.lines, expected).contains(where: { $0.quantity > $1 }) else { return nil }
        let left = zip(order.lines, expected).map { ItemStock(itemId: $0.itemId, stock: $1 - $0.quantity) }
        let event = store.eventEncoder.map { EventRecord($0.encode(.orderPlaced(order, stock: left)), key: order.id.rawValue, at: store.clock.now()) }
        let placing = ExpectedOrder(
            placed: PlacedOrder(order: OrderRecord(order), lines: OrderLineRecord.lines(of: order), event: event), ids: ids, stock: expected
        )
        let found = try await store.writeStatement { connection, logger in
            let rows = event == nil
                ? try await connection.rows(PlaceAsExpected.self, logger) { try PlaceAsExpected.statement.bind(placing, to: &$0) }
                : try await connection.rows(PlaceAsExpectedAndAnnounce.self, logger) { try PlaceAsExpectedAndAnnounce.statement.bind(placing, to: &$0) }
            return try rows.map { try $0.decode((String, Int, Bool).self) }
        }
        let met = found.first?.2 == true
        store.stockHints.noteExpectation(met: met)
        guard met else {
            store.stockHints.saw(found.lazy.map { ($0.0, $0.1) })
            return nil
        }
        store.stockHints.saw(left)
        if event != nil { store.sequencer.wake() }
        return .placed(order)
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
            store.stockHints.saw(stock)
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
    static let sql = "SELECT id, stock FROM menu_items WHERE id \(GenericPlan.isAny("$1", "text[]")) ORDER BY id FOR UPDATE"
}

/// PlaceOrder's second step, one statement: take every line's stock, conditionally (so stock can
/// never go below zero even if the check before were wrong), and store the order and its lines
/// (and, `announcing`, its event: after the items' row locks, like every event); returns how many
/// lines' stock was taken.
private func takeStockAndStoreOrder(announcing: Bool) -> PostgresStatement<PlacedOrder> {
    PostgresStatement<PlacedOrder> { s in
        """
        WITH line AS (
            \(GenericPlan.rows(s.rows { $0.lines }, count: s.value { $0.lines.count }))
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

/// What ``placeAsExpected(announcing:)`` binds: the order's rows and the stock expected of each
/// of its items (`ids` in the order's line order).
private struct ExpectedOrder: Sendable {
    let placed: PlacedOrder
    let ids: [String]
    let stock: [Int]
}

/// A whole PlaceOrder in one statement, its own transaction: lock the items in id order (as
/// ``LockItems``); only if every one of them exists and has exactly the stock expected, take
/// every line's stock and store the order and its lines (and, `announcing`, its event, whose
/// stock left follows from the stock expected). Returns each locked item's stock before, and
/// whether the order was placed. Taking less than every line's stock although each was as
/// expected cannot happen under the row locks; if it did, the statement fails (a division by
/// zero) rather than store part of an order.
private func placeAsExpected(announcing: Bool) -> PostgresStatement<ExpectedOrder> {
    PostgresStatement<ExpectedOrder> { s in
        let ids = s.value { $0.ids }, stock = s.value { $0.stock }, count = s.value { $0.ids.count }
        let placed = "(SELECT complete FROM whole)"
        return """
            WITH locked AS MATERIALIZED (
                SELECT id, stock FROM menu_items WHERE id \(GenericPlan.isAny(ids, "text[]")) ORDER BY id FOR UPDATE
            ), verdict AS MATERIALIZED (
                SELECT count(*) = \(count) AS agreed FROM locked
                JOIN unnest(\(GenericPlan.array(ids, "text[]")), \(GenericPlan.array(stock, "bigint[]"))) AS expected (id, stock) ON expected.id = locked.id AND expected.stock = locked.stock
            ), line AS (
                \(GenericPlan.rows(s.rows { $0.placed.lines }, count: count))
            ), taken AS (
                UPDATE menu_items AS m SET stock = m.stock - line.quantity FROM line
                WHERE (SELECT agreed FROM verdict) AND m.id = line.item_id AND m.stock >= line.quantity RETURNING m.id
            ), whole AS MATERIALIZED (
                SELECT CASE WHEN (SELECT agreed FROM verdict) THEN 1 / ((SELECT count(*) FROM taken) = \(count))::int = 1 ELSE false END AS complete
            ), placed AS (
                \(s.insert({ $0.placed.order }, where: placed))
            ), lines AS (
                INSERT INTO order_lines (\(OrderLineRecord.postgresSelection)) SELECT \(OrderLineRecord.postgresSelection) FROM line WHERE \(placed)
            )\(announcing ? ", announced AS (\n    \(s.insert({ $0.placed.event! }, where: placed))\n)" : "")
            SELECT locked.id, locked.stock, \(placed) FROM locked
            """
    }
}

/// ``placeAsExpected(announcing:)`` for a write that appends no event.
private enum PlaceAsExpected: PreparedSQL {
    static let name = "svc_place_order_expected"
    static let statement = placeAsExpected(announcing: false)
    static var sql: String { statement.sql }
}

/// ``placeAsExpected(announcing:)`` for a write that appends the order's event.
private enum PlaceAsExpectedAndAnnounce: PreparedSQL {
    static let name = "svc_place_order_expected_announced"
    static let statement = placeAsExpected(announcing: true)
    static var sql: String { statement.sql }
}

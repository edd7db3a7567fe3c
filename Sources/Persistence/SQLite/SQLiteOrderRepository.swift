import Domain
import GRDB

/// Orders in SQLite. Placing one checks and takes the stock of every line and stores the order
/// in one write transaction on the store the menu items are in (all or nothing); the
/// `stock >= 0` CHECK constraint is a last line of defence that no code path relies on.
///
/// A struct: it holds no state of its own (the database does). Every method is
/// `nonisolated(nonsending)`: a call runs on its caller's executor, without a switch to the
/// generic executor and back.
public struct SQLiteOrderRepository: OrderRepository {
    /// None: every read waits for the database.
    public var heldReads: Set<RepositoryRead> { [] }

    private let store: SQLiteStore

    /// Orders of `store`, taking stock from its menu items.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Takes every line's stock and stores the order, or changes nothing; returns once durable.
    public nonisolated(nonsending) func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome {
        let record = OrderRecord(order), lines = OrderLineRecord.lines(of: order)
        return try await store.write(boundTo: claim) { db in
            var left: [ItemStock] = []
            for line in order.lines {
                guard let stock = try Int.fetchOne(db.cachedStatement(sql: "SELECT stock FROM menu_items WHERE id = ?"), arguments: [line.itemId.rawValue]) else {
                    return (.unknownItem(line.itemId), nil)
                }
                guard line.quantity <= stock else {
                    return (.insufficientStock(itemId: line.itemId, requested: line.quantity, available: stock), nil)
                }
                left.append(ItemStock(itemId: line.itemId, stock: stock - line.quantity))
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
            return (.placed(order), .changed(.order(order), .orderPlaced(order, stock: left)))
        }
    }

    /// Cancels the order as `decide` judges it and returns its lines' stock, in one write
    /// transaction; returns once durable.
    public nonisolated(nonsending) func cancel(
        id: OrderID, claim: IdempotencyClaim?, _ decide: @escaping @Sendable (Order) throws -> Order
    ) async throws -> OrderCancellationOutcome {
        try await store.write(boundTo: claim) { db in
            guard let stored = try Self.orders(db.records(OrderRecord.self, Self.selectOrder, [id.rawValue]), db).first else { return (.notFound, nil) }
            let decided = try decide(stored)
            guard decided != stored else { return (.stored(stored), .unchanged(.order(stored))) }
            try stored.checkCancellation(decided)
            try db.run(
                "UPDATE orders SET status = :status, cancelled_at = :cancelledAt WHERE id = :id AND status = :placed",
                ["status": decided.status.rawValue, "cancelledAt": decided.cancelledAt?.millisecondsSinceEpoch, "id": id.rawValue, "placed": Order.Status.placed.rawValue]
            )
            guard db.changesCount == 1 else { throw StoreError.inconsistentWrite("order \(id) changed inside its own transaction") }
            var after: [ItemStock] = []
            for line in decided.lines {
                try db.run("UPDATE menu_items SET stock = stock + :quantity WHERE id = :id", ["quantity": line.quantity, "id": line.itemId.rawValue])
                guard db.changesCount == 1, let stock = try Int.fetchOne(db.cachedStatement(sql: "SELECT stock FROM menu_items WHERE id = ?"), arguments: [line.itemId.rawValue]) else {
                    throw StoreError.inconsistentWrite("item \(line.itemId) of order \(id) is missing")
                }
                after.append(ItemStock(itemId: line.itemId, stock: stock))
            }
            return (.stored(decided), .changed(.order(decided), .orderCancelled(decided, stock: after)))
        }
    }

    /// The order with this id.
    public nonisolated(nonsending) func order(id: OrderID) async throws -> Order? {
        try await store.read { db in
            try Self.orders(db.records(OrderRecord.self, Self.selectOrder, [id.rawValue]), db).first
        }
    }

    /// A user's orders, newest first, strictly after `after`.
    public nonisolated(nonsending) func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async throws -> [Order] {
        try await store.read { db in
            let rows = try db.newestFirst(OrderRecord.selection, from: "orders", where: "user_id = ?", [userId.rawValue], after: after, limit: limit)
            return try Self.orders(rows.map(OrderRecord.init(row:)), db)
        }
    }

    /// One order by id.
    private static let selectOrder = "SELECT \(OrderRecord.selection) FROM orders WHERE id = ?"

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
}

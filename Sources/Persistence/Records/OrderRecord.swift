import Domain
import GRDB

/// The `orders` row and `order_lines` rows of an ``Order``, both ways.
enum OrderRecord {
    static let columns = "id, user_id, currency, discount_minor_units, tax_minor_units, delivery_address, created_at"
    static let lineColumns = "order_id, position, item_id, quantity, unit_price_minor_units"

    /// The order of `row` with `lines` (its `order_lines` rows in position order).
    static func order(from row: Row, lines: [Row]) throws -> Order {
        Order(
            id: OrderID(try row.decode(forColumn: "id")),
            userId: UserID(try row.decode(forColumn: "user_id")),
            lines: try lines.map { line in
                Order.Line(
                    itemId: MenuItemID(try line.decode(forColumn: "item_id")),
                    quantity: try line.decode(forColumn: "quantity"),
                    unitPriceCents: try line.decode(forColumn: "unit_price_minor_units")
                )
            },
            currency: try MenuItemRecord.currency(row, table: "orders"),
            discountCents: try row.decode(forColumn: "discount_minor_units"),
            taxCents: try row.decode(forColumn: "tax_minor_units"),
            deliveryAddress: try row.decode(forColumn: "delivery_address"),
            createdAt: Timestamp(millisecondsSinceEpoch: try row.decode(forColumn: "created_at"))
        )
    }

    static func arguments(_ order: Order) -> StatementArguments {
        [
            order.id.rawValue, order.userId.rawValue, order.currency.code, order.discountCents, order.taxCents,
            order.deliveryAddress, order.createdAt.millisecondsSinceEpoch,
        ]
    }

    static func lineArguments(_ order: Order) -> [StatementArguments] {
        order.lines.enumerated().map { position, line in
            [order.id.rawValue, position, line.itemId.rawValue, line.quantity, line.unitPriceCents]
        }
    }

    /// Fetches the orders of `rows` with their lines, keeping the rows' order.
    static func orders(from rows: [Row], _ db: Database) throws -> [Order] {
        guard !rows.isEmpty else { return [] }
        let ids: [String] = try rows.map { try $0.decode(forColumn: "id") }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let lineRows = try Row.fetchAll(
            db, sql: "SELECT \(lineColumns) FROM order_lines WHERE order_id IN (\(placeholders)) ORDER BY order_id, position",
            arguments: StatementArguments(ids)
        )
        var linesByOrder: [String: [Row]] = [:]
        for line in lineRows {
            linesByOrder[try line.decode(forColumn: "order_id"), default: []].append(line)
        }
        return try zip(rows, ids).map { row, id in try order(from: row, lines: linesByOrder[id] ?? []) }
    }
}

import Domain
import GRDB

/// The `order_lines` row of one line of an ``Order``: one property per column.
struct OrderLineRecord: Sendable {
    var orderId: String
    /// The line's place in its order, from 0.
    var position: Int
    var itemId: String
    var quantity: Int
    var unitPriceMinorUnits: Int

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case orderId = "order_id"
        case position
        case itemId = "item_id"
        case quantity
        case unitPriceMinorUnits = "unit_price_minor_units"
    }

    /// The rows of `order`'s lines, in line order.
    static func lines(of order: Order) -> [OrderLineRecord] {
        order.lines.enumerated().map { position, line in
            OrderLineRecord(
                orderId: order.id.rawValue, position: position, itemId: line.itemId.rawValue, quantity: line.quantity,
                unitPriceMinorUnits: line.unitPriceCents
            )
        }
    }

    /// The order line of this row.
    func line() -> Order.Line {
        Order.Line(itemId: MenuItemID(itemId), quantity: quantity, unitPriceCents: unitPriceMinorUnits)
    }
}

extension OrderLineRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "order_lines"
    static let selection = columnList()
    static let insertion = insertStatement()

    init(row: Row) throws {
        orderId = try row.decode(forColumn: Columns.orderId)
        position = try row.decode(forColumn: Columns.position)
        itemId = try row.decode(forColumn: Columns.itemId)
        quantity = try row.decode(forColumn: Columns.quantity)
        unitPriceMinorUnits = try row.decode(forColumn: Columns.unitPriceMinorUnits)
    }

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .orderId: orderId
        case .position: position
        case .itemId: itemId
        case .quantity: quantity
        case .unitPriceMinorUnits: unitPriceMinorUnits
        }
    }
}

import GRDB
import PostgresNIO

extension OrderLineRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<OrderLineRecord>? {
        switch column {
        case .orderId: .init(column) { $0.orderId }
        case .position: .init(column) { $0.position }
        case .itemId: .init(column) { $0.itemId }
        case .quantity: .init(column) { $0.quantity }
        case .unitPriceMinorUnits: .init(column) { $0.unitPriceMinorUnits }
        }
    }

    init(postgres row: PostgresRecordRow<OrderLineRecord>) throws {
        orderId = try row[.orderId]
        position = try row[.position]
        itemId = try row[.itemId]
        quantity = try row[.quantity]
        unitPriceMinorUnits = try row[.unitPriceMinorUnits]
    }
}

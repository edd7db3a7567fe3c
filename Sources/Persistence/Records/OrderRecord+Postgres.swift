import GRDB
import PostgresNIO

extension OrderRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<OrderRecord>? {
        switch column {
        case .id: .init(column) { $0.id }
        case .userId: .init(column) { $0.userId }
        case .currency: .init(column) { $0.currency }
        case .discountMinorUnits: .init(column) { $0.discountMinorUnits }
        case .taxMinorUnits: .init(column) { $0.taxMinorUnits }
        case .deliveryAddress: .init(column) { $0.deliveryAddress }
        case .createdAt: .init(column) { $0.createdAt }
        case .status: .init(column) { $0.status }
        case .cancelledAt: .init(column, nullable: { $0.cancelledAt })
        }
    }

    init(postgres row: PostgresRecordRow<OrderRecord>) throws {
        id = try row[.id]
        userId = try row[.userId]
        currency = try row[.currency]
        discountMinorUnits = try row[.discountMinorUnits]
        taxMinorUnits = try row[.taxMinorUnits]
        deliveryAddress = try row[.deliveryAddress]
        createdAt = try row[.createdAt]
        status = try row[.status]
        cancelledAt = try row[.cancelledAt]
    }
}

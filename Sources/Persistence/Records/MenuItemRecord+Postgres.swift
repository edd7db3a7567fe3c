import GRDB
import PostgresNIO

extension MenuItemRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<MenuItemRecord>? {
        switch column {
        case .id: .init(column) { $0.id }
        case .restaurantId: .init(column) { $0.restaurantId }
        case .name: .init(column) { $0.name }
        case .priceMinorUnits: .init(column) { $0.priceMinorUnits }
        case .currency: .init(column) { $0.currency }
        case .stock: .init(column) { $0.stock }
        }
    }

    init(postgres row: PostgresRecordRow<MenuItemRecord>) throws {
        id = try row[.id]
        restaurantId = try row[.restaurantId]
        name = try row[.name]
        priceMinorUnits = try row[.priceMinorUnits]
        currency = try row[.currency]
        stock = try row[.stock]
    }
}

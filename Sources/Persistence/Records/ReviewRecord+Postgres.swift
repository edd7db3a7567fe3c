import GRDB
import PostgresNIO

extension ReviewRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<ReviewRecord>? {
        switch column {
        case .id: .init(column) { $0.id }
        case .restaurantId: .init(column) { $0.restaurantId }
        case .userId: .init(column) { $0.userId }
        case .rating: .init(column) { $0.rating }
        case .text: .init(column) { $0.text }
        case .createdAt: .init(column) { $0.createdAt }
        }
    }

    init(postgres row: PostgresRecordRow<ReviewRecord>) throws {
        id = try row[.id]
        restaurantId = try row[.restaurantId]
        userId = try row[.userId]
        rating = try row[.rating]
        text = try row[.text]
        createdAt = try row[.createdAt]
    }
}

import GRDB
import PostgresNIO

extension FavoriteRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<FavoriteRecord>? {
        switch column {
        case .userId: .init(column) { $0.userId }
        case .restaurantId: .init(column) { $0.restaurantId }
        case .savedAt: .init(column) { $0.savedAt }
        }
    }

    init(postgres row: PostgresRecordRow<FavoriteRecord>) throws {
        userId = try row[.userId]
        restaurantId = try row[.restaurantId]
        savedAt = try row[.savedAt]
    }
}

import GRDB
import PostgresNIO

extension UserRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<UserRecord>? {
        switch column {
        case .id: .init(column) { $0.id }
        case .name: .init(column) { $0.name }
        case .email: .init(column) { $0.email }
        case .emailKey: .init(column) { $0.emailKey }
        case .joinedAt: .init(column) { $0.joinedAt }
        case .isActive: .init(column) { $0.isActive }
        case .subscriptionActiveUntil: .init(column, nullable: { $0.subscriptionActiveUntil })
        // PostgreSQL's repositories hold no copies whose order a version would keep.
        case .version: nil
        }
    }

    init(postgres row: PostgresRecordRow<UserRecord>) throws {
        id = try row[.id]
        name = try row[.name]
        email = try row[.email]
        emailKey = try row[.emailKey]
        joinedAt = try row[.joinedAt]
        isActive = try row[.isActive]
        subscriptionActiveUntil = try row[.subscriptionActiveUntil]
        version = 0
    }
}

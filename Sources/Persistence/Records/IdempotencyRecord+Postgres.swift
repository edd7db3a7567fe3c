import Foundation
import GRDB
import PostgresNIO

extension IdempotencyRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<IdempotencyRecord>? {
        switch column {
        case .key: .init(column) { $0.key }
        case .request: .init(column) { $0.request }
        case .result: .init(column, unbatched: { $0.result })
        case .madeAt: .init(column) { $0.madeAt }
        }
    }

    init(postgres row: PostgresRecordRow<IdempotencyRecord>) throws {
        key = try row[.key]
        request = try row[.request]
        result = try row[.result]
        madeAt = try row[.madeAt]
    }
}

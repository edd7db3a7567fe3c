import Foundation
import GRDB
import PostgresNIO

extension EventRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<EventRecord>? {
        switch column {
        // Never inserted: the sequencer numbers a row after its commit (read back by name).
        case .seq: nil
        case .type: .init(column) { $0.type }
        case .at: .init(column) { $0.at }
        case .key: .init(column) { $0.key }
        // TEXT in PostgreSQL, so the events read as JSON in psql.
        case .data: .init(column) { String(decoding: $0.data, as: UTF8.self) }
        case .traceparent: .init(column, nullable: { $0.traceparent })
        }
    }

    init(postgres row: PostgresRecordRow<EventRecord>) throws {
        seq = try row[.seq]
        type = try row[.type]
        at = try row[.at]
        key = try row[.key]
        let text: String = try row[.data]
        data = Data(text.utf8)
        traceparent = try row[.traceparent]
    }

    /// Every column with `seq`, for reading numbered events.
    static let postgresNumberedSelection = "\(Columns.seq.name), \(postgresSelection)"
}

import Domain
import Foundation
import GRDB
import Telemetry

/// The `events` row of a ``LoggedEvent``: one property per column.
struct EventRecord: Sendable {
    /// The event's place in the log; `nil` until numbered (SQLite numbers it at insertion,
    /// PostgreSQL after commit, see ``PostgresEventSequencer``).
    var seq: Int64?
    var type: String
    /// The write's time, in milliseconds since the epoch: retention prunes by it.
    var at: Int64
    var key: String
    /// The encoded data (a JSON object).
    var data: Data
    var traceparent: String?

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case seq, type, at, key, data, traceparent
    }

    /// A new row for `event`, encoded, written at `at` by the request whose trace context is
    /// `traceparent` (by default the writing task's, ``Telemetry/WriterTrace``).
    init(_ encoded: EncodedEvent, key: String, at: Timestamp, traceparent: String? = WriterTrace.traceparent) {
        seq = nil
        type = encoded.type
        self.at = at.millisecondsSinceEpoch
        self.key = key
        data = Data(encoded.data)
        self.traceparent = traceparent
    }

    /// The logged event of a numbered row.
    func event() throws -> LoggedEvent {
        guard let seq else { throw StoreError.unmappable(table: Self.databaseTableName, column: Columns.seq.name, value: "NULL") }
        return LoggedEvent(seq: seq, type: type, at: Timestamp(millisecondsSinceEpoch: at), key: key, data: Array(data), traceparent: traceparent)
    }
}

extension EventRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "events"
    static let selection = columnList()
    static let insertion = insertStatement()

    init(row: Row) throws {
        seq = try row.decode(forColumn: Columns.seq)
        type = try row.decode(forColumn: Columns.type)
        at = try row.decode(forColumn: Columns.at)
        key = try row.decode(forColumn: Columns.key)
        data = try row.decode(forColumn: Columns.data)
        traceparent = try row.decode(forColumn: Columns.traceparent)
    }

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .seq: seq
        case .type: type
        case .at: at
        case .key: key
        case .data: data
        case .traceparent: traceparent
        }
    }
}

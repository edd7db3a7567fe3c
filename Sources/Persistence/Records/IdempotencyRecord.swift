import Domain
import Foundation
import GRDB

/// The `idempotency_keys` row of a key's ``IdempotencyBinding``: one property per column.
struct IdempotencyRecord: Sendable {
    var key: String
    /// The request the key was first used with.
    var request: String
    /// That request's write's result, as recorded.
    var result: Data
    /// When the key was bound, in milliseconds since the epoch: old keys are forgotten by it.
    var madeAt: Int64

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case key, request, result
        case madeAt = "made_at"
    }

    /// The row binding `key` to `binding` at `madeAt`.
    init(key: String, _ binding: IdempotencyBinding, madeAt: Timestamp) {
        self.key = key
        request = binding.request
        result = Data(binding.recordedResult)
        self.madeAt = madeAt.millisecondsSinceEpoch
    }

    /// The binding of this row.
    func binding() -> IdempotencyBinding {
        IdempotencyBinding(request: request, recordedResult: Array(result))
    }
}

extension IdempotencyRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "idempotency_keys"
    static let selection = columnList()
    static let insertion = insertStatement()

    init(row: Row) throws {
        key = try row.decode(forColumn: Columns.key)
        request = try row.decode(forColumn: Columns.request)
        result = try row.decode(forColumn: Columns.result)
        madeAt = try row.decode(forColumn: Columns.madeAt)
    }

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .key: key
        case .request: request
        case .result: result
        case .madeAt: madeAt
        }
    }
}

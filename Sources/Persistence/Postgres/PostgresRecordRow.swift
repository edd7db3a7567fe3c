import GRDB
import PostgresNIO

/// A PostgreSQL row read by a record's column names, whatever their order in the statement.
struct PostgresRecordRow<Record: PostgresRecord> {
    private let cells: PostgresRandomAccessRow

    /// The cells of `row`.
    init(_ row: PostgresRow) {
        cells = PostgresRandomAccessRow(row)
    }

    /// The value of `column`. A row without the column (a statement that did not select it) is
    /// an error, not a crash.
    subscript<Value: PostgresDecodable>(_ column: Record.Columns) -> Value {
        get throws {
            guard cells.contains(column.name) else {
                throw StoreError.unmappable(table: Record.databaseTableName, column: column.name, value: "(not selected)")
            }
            return try cells[column.name].decode(Value.self)
        }
    }
}

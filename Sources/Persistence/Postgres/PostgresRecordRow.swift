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
            let name = column.name
            // Statements select ``PostgresRecord/postgresColumns`` in that order, so the column is
            // first looked for at its place there: postgres-nio's lookup by name hashes the name
            // twice per column (callgrind: a restaurant's row read in 35,300 instructions that
            // way, 28,500 this way).
            let columns = Record.postgresColumns
            for position in columns.indices where columns[position].name == name {
                guard position < cells.count else { break }
                let cell = cells[position]
                guard cell.columnName == name else { break }
                return try cell.decode(Value.self)
            }
            guard cells.contains(name) else {
                throw StoreError.unmappable(table: Record.databaseTableName, column: name, value: "(not selected)")
            }
            return try cells[name].decode(Value.self)
        }
    }
}

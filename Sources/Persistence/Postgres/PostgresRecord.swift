import GRDB
import PostgresNIO

/// A record that PostgreSQL stores too. Its value of each column, and how that value is bound,
/// comes from one exhaustive switch, ``postgresColumn(_:)`` (``PostgresColumn``): the one place
/// that pairs a column with its value there. Statements' column lists, `$n` placeholders and
/// bindings are made from ``postgresColumns`` (``PostgresStatement``), and rows are read back by
/// column name (``PostgresRecordRow``), so no list of values has to match a list of columns by
/// position.
protocol PostgresRecord: TableRecord, Sendable where Columns: ColumnExpression & CaseIterable {
    /// How `column` and the record's value of it are bound; `nil` for a column that PostgreSQL's
    /// table does not have.
    static func postgresColumn(_ column: Columns) -> PostgresColumn<Self>?

    /// The table's columns in PostgreSQL, in `Columns` order, made once by
    /// ``postgresColumnList()``.
    static var postgresColumns: [PostgresColumn<Self>] { get }

    /// The record of a row that has every column of ``postgresColumns``.
    init(postgres row: PostgresRecordRow<Self>) throws
}

extension PostgresRecord {
    /// The value of ``postgresColumns``.
    static func postgresColumnList() -> [PostgresColumn<Self>] {
        Columns.allCases.compactMap(postgresColumn)
    }

    /// Every column, for `SELECT` and `RETURNING`.
    static var postgresSelection: String {
        postgresColumns.map(\.name).joined(separator: ", ")
    }

    /// The record of a PostgreSQL row, read by column name.
    init(_ row: PostgresRow) throws {
        try self.init(postgres: PostgresRecordRow(row))
    }
}

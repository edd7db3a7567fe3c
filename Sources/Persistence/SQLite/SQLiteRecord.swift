import GRDB

/// A GRDB record of one SQLite table whose columns are the cases of its `Columns` and whose value
/// of each column comes from one exhaustive switch, ``databaseValue(_:)``: the one place that
/// pairs a column with its value. `encode(to:)` (GRDB's persistence methods), the arguments of
/// the statements made from `Columns` (``insertion``) and the named arguments of hand-written
/// statements (`:column`) are all made from it.
///
/// Rows are written with `db.insert(record)`, a statement made once from `Columns` and cached by
/// the connection, rather than GRDB's `record.insert(db)`: that builds a persistence container
/// and looks up the table's primary key, its columns and its SQL on every call, on the writer's
/// queue, which every write waits for; it cost RegisterUser close to a third of its rate
/// (`storebench writes`).
protocol SQLiteRecord: PersistableRecord where Columns: ColumnExpression & CaseIterable & Hashable {
    /// The record's value of `column`.
    func databaseValue(_ column: Columns) throws -> (any DatabaseValueConvertible)?

    /// Every column, comma-separated in `Columns` order: the selection of the record's queries,
    /// made once by ``columnList()``.
    static var selection: String { get }

    /// `INSERT INTO table (c1, …) VALUES (?, …)` of every column, made once by
    /// ``insertStatement()``.
    static var insertion: String { get }
}

extension SQLiteRecord {
    /// Every column, with ``databaseValue(_:)``.
    func encode(to container: inout PersistenceContainer) throws {
        for column in Columns.allCases {
            container[column] = try databaseValue(column)
        }
    }

    /// The value of every column, in `Columns` order: the arguments of ``insertion``.
    var databaseArguments: StatementArguments {
        get throws {
            StatementArguments(try Columns.allCases.map { try databaseValue($0) })
        }
    }

    /// The value of every column under its name, for a statement's `:column` placeholders.
    var namedArguments: StatementArguments {
        get throws {
            StatementArguments(try Columns.allCases.map { column -> (String, (any DatabaseValueConvertible)?) in
                (column.name, try databaseValue(column))
            })
        }
    }

    /// The text of ``selection``.
    static func columnList() -> String {
        Columns.allCases.map(\.name).joined(separator: ", ")
    }

    /// The text of ``insertion``.
    static func insertStatement() -> String {
        let placeholders = Array(repeating: "?", count: Columns.allCases.count).joined(separator: ", ")
        return "INSERT INTO \(databaseTableName) (\(columnList())) VALUES (\(placeholders))"
    }

    /// `c1 = :c1, …` for every column but `except`, for an `UPDATE` with ``namedArguments``.
    static func assignments(except: Set<Columns>) -> String {
        Columns.allCases.filter { !except.contains($0) }.map { "\($0.name) = :\($0.name)" }.joined(separator: ", ")
    }
}

extension Database {
    /// Inserts `record`'s row through the connection's statement cache.
    func insert<Record: SQLiteRecord>(_ record: Record) throws {
        try cachedStatement(sql: Record.insertion).execute(arguments: record.databaseArguments)
    }
}

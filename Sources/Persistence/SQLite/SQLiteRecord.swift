import GRDB
import GRDBSQLite

/// A GRDB record of one SQLite table whose columns are the cases of its `Columns` and whose value
/// of each column comes from one exhaustive switch, ``databaseValue(_:)``: the one place that
/// pairs a column with its value. `encode(to:)` (GRDB's persistence methods), the values bound
/// to the statements made from `Columns` (``insertion``, see `Database.bindInPlace(_:sql:)`) and
/// the named arguments of hand-written statements (`:column`) are all made from it.
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
    /// ``insertStatement()``, for `Database.bindInPlace(_:sql:)` (and the statements made from
    /// it by appending a clause) only.
    static var insertion: String { get }
}

extension SQLiteRecord {
    /// Every column, with ``databaseValue(_:)``.
    func encode(to container: inout PersistenceContainer) throws {
        for column in Columns.allCases {
            container[column] = try databaseValue(column)
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
        return "\(Database.boundInPlace)INSERT INTO \(databaseTableName) (\(columnList())) VALUES (\(placeholders))"
    }

    /// `c1 = :c1, …` for every column but `except`, for an `UPDATE` with ``namedArguments``.
    static func assignments(except: Set<Columns>) -> String {
        Columns.allCases.filter { !except.contains($0) }.map { "\($0.name) = :\($0.name)" }.joined(separator: ", ")
    }
}

extension Database {
    /// Inserts `record`'s row through the connection's statement cache (see ``bindInPlace(_:sql:)``).
    func insert<Record: SQLiteRecord>(_ record: Record) throws {
        try bindInPlace(record, sql: Record.insertion).execute()
    }

    /// The cached statement of `sql`, a statement of `record`'s columns in `Columns` order (such
    /// as ``SQLiteRecord/insertion``), with `record`'s values bound to it, for `execute()`.
    ///
    /// Each value is bound straight to SQLite's statement (`StatementBinding`), where
    /// `execute(arguments:)` makes a `StatementArguments` of existentials, matches it to the
    /// statement's argument names and binds each value in a closure nested in the previous one's:
    /// on SQLite's one writer, which every write waits for, that took a third of an event row's
    /// insertion (`perf` of `storebench writes`). `execute()` then only resets the statement,
    /// which keeps the bindings, once GRDB holds the statement's arguments as set: they are set to
    /// NULLs once per statement. `sql` starts with ``boundInPlace``, so that no statement run
    /// with arguments (which GRDB would bind over these) shares its text in the cache.
    func bindInPlace<Record: SQLiteRecord>(_ record: Record, sql: String) throws -> Statement {
        assert(sql.hasPrefix(Self.boundInPlace), "a statement bound in place starts with \(Self.boundInPlace)")
        let statement = try cachedStatement(sql: sql)
        if statement.arguments.isEmpty {
            // A statement new to the cache (or replaced after a failure): GRDB binds nothing from
            // now on; execute() resets it, which keeps the values bound below.
            statement.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: Record.Columns.allCases.count)))
        }
        // SQLite binds only to a statement reset since its last step.
        try check(sqlite3_reset(statement.sqliteStatement), sql)
        var index: CInt = 1
        for column in Record.Columns.allCases {
            let value = try record.databaseValue(column)?.databaseValue ?? .null
            try check(value.bind(to: statement.sqliteStatement, at: index), sql)
            index += 1
        }
        return statement
    }

    /// Throws SQLite's error unless `code` is `SQLITE_OK`.
    private func check(_ code: CInt, _ sql: String) throws {
        guard code != SQLITE_OK else { return }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: sql)
    }

    /// The comment that starts every statement of ``bindInPlace(_:sql:)``: it keeps them apart
    /// in the statement cache.
    static let boundInPlace = "/* bound in place */ "
}

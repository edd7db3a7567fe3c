import GRDB
import PostgresNIO

/// The text of a PostgreSQL statement and how an input is bound to it, made together: each
/// fragment of the text that takes values numbers its `$n` from the bindings registered so far
/// and registers how the input's values are bound, in the same step, so a placeholder and its
/// binding cannot disagree. Records contribute their columns and values through
/// ``PostgresRecord/postgresColumns``.
///
/// ```swift
/// static let insert = PostgresStatement<UserRecord> { s in
///     "\(s.insert { $0 }) ON CONFLICT (email_key) DO NOTHING RETURNING id"
/// }
/// ```
struct PostgresStatement<Input>: Sendable {
    /// The statement's text, with `$1`… for its bindings.
    let sql: String
    private let binders: [@Sendable (Input, inout PostgresBindings) throws -> Void]

    /// The statement whose text `build` writes from the fragments of the builder it is given.
    init(_ build: (inout Builder) -> String) {
        var builder = Builder()
        sql = build(&builder)
        binders = builder.binders
    }

    /// Appends the bindings of `input`, in `$n` order.
    func bind(_ input: Input, to bindings: inout PostgresBindings) throws {
        for binder in binders { try binder(input, &bindings) }
    }

    /// The statement bound to `input`, as postgres-nio runs an unnamed statement.
    func query(_ input: Input) throws -> PostgresQuery {
        var bindings = PostgresBindings()
        try bind(input, to: &bindings)
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// Writes fragments of a statement's text and registers their bindings.
    struct Builder {
        fileprivate var binders: [@Sendable (Input, inout PostgresBindings) throws -> Void] = []
        private var count = 0

        /// `$n` for one value of the input.
        mutating func value<Value: PostgresEncodable & Sendable>(_ value: @escaping @Sendable (Input) -> Value) -> String {
            register { input, bindings in try bindings.append(value(input)) }
            return placeholders(1)[0]
        }

        /// `INSERT INTO table (c1, …) VALUES ($n, …)`: the input's record as a new row.
        mutating func insert<Record: PostgresRecord>(_ record: @escaping @Sendable (Input) -> Record) -> String {
            "INSERT INTO \(Record.databaseTableName) (\(Record.postgresSelection)) VALUES (\(values(of: record)))"
        }

        /// `INSERT INTO table (c1, …) SELECT $n, … WHERE condition`: the input's record as a new
        /// row when `condition` holds.
        mutating func insert<Record: PostgresRecord>(_ record: @escaping @Sendable (Input) -> Record, where condition: String) -> String {
            "INSERT INTO \(Record.databaseTableName) (\(Record.postgresSelection)) SELECT \(values(of: record)) WHERE \(condition)"
        }

        /// `$n, …`, one per column of the input's record.
        private mutating func values<Record: PostgresRecord>(of record: @escaping @Sendable (Input) -> Record) -> String {
            let columns = Record.postgresColumns
            register { input, bindings in
                let record = record(input)
                for column in columns { try column.bind(record, &bindings) }
            }
            return placeholders(columns.count).joined(separator: ", ")
        }

        /// `c1 = $n, …` for `columns` of the input's record, or without them for every column but
        /// `except`.
        mutating func assignments<Record: PostgresRecord>(
            _ columns: [Record.Columns]? = nil, except: [Record.Columns] = [], of record: @escaping @Sendable (Input) -> Record
        ) -> String {
            let assigned = Record.postgresColumns.filter { column in
                columns.map { $0.contains { $0.name == column.name } } ?? !except.contains { $0.name == column.name }
            }
            register { input, bindings in
                let record = record(input)
                for column in assigned { try column.bind(record, &bindings) }
            }
            return zip(assigned, placeholders(assigned.count)).map { "\($0.name) = \($1)" }.joined(separator: ", ")
        }

        /// `SELECT c1, … FROM unnest($n::T[], …) AS batch (…)`: the input's records as rows with the
        /// records' columns, for an `INSERT … SELECT` or a `WITH`.
        mutating func rows<Record: PostgresRecord>(_ records: @escaping @Sendable (Input) -> [Record]) -> String {
            let arrays = Record.postgresColumns.map { column in
                guard let arrays = column.arrays else { preconditionFailure("\(Record.databaseTableName).\(column.name) cannot be unnested") }
                return arrays
            }
            register { input, bindings in
                let records = records(input)
                for array in arrays { try array.bind(records, &bindings) }
            }
            let parameters = arrays.flatMap(\.parameters)
            let arguments = zip(placeholders(parameters.count), parameters).map { GenericPlan.array($0, $1.type) }
            let selection = zip(arrays, Record.postgresColumns).map { $0.selection == $1.name ? $1.name : "\($0.selection) AS \($1.name)" }
            return """
                SELECT \(selection.joined(separator: ", ")) FROM unnest(\(arguments.joined(separator: ", "))) \
                AS batch (\(parameters.map(\.name).joined(separator: ", ")))
                """
        }

        private mutating func register(_ binder: @escaping @Sendable (Input, inout PostgresBindings) throws -> Void) {
            binders.append(binder)
        }

        /// The next `n` placeholders.
        private mutating func placeholders(_ n: Int) -> [String] {
            defer { count += n }
            return (0..<n).map { "$\(count + 1 + $0)" }
        }
    }
}

import GRDB
import PostgresNIO

/// One column of a record's PostgreSQL table: its name and how the record's value of it is bound,
/// alone or, for several records at once, as arrays for `unnest`. A record makes one for each of
/// its columns in ``PostgresRecord/postgresColumn(_:)``.
struct PostgresColumn<Record: PostgresRecord>: Sendable {
    /// The column's name.
    let name: String
    /// Appends the record's value of the column.
    let bind: @Sendable (Record, inout PostgresBindings) throws -> Void
    /// The column as arrays for `unnest`, or `nil` when PostgreSQL arrays cannot hold its values.
    let arrays: Arrays?

    /// A column's values of several records as `unnest` arguments.
    struct Arrays: Sendable {
        /// The name and SQL array type of each array (`unnest`'s `$n` needs a type of its own).
        let parameters: [(name: String, type: String)]
        /// The column's value in a row of `unnest`, from the arrays' names.
        let selection: String
        /// Appends the arrays of the records' values, in ``parameters`` order.
        let bind: @Sendable ([Record], inout PostgresBindings) throws -> Void
    }

    /// A column whose value is never NULL.
    init<Value: PostgresArrayEncodable & Sendable>(_ column: Record.Columns, _ value: @escaping @Sendable (Record) -> Value) {
        name = column.name
        bind = { record, bindings in try bindings.append(value(record)) }
        arrays = Arrays(
            parameters: [(column.name, Self.arrayType(of: Value.self))], selection: column.name,
            bind: { records, bindings in try bindings.append(records.map(value)) }
        )
    }

    /// A column whose value may be NULL. postgres-nio binds no NULLs inside arrays, so for
    /// `unnest` it is two arrays: whether each value is there (`<name>_present`), and the values.
    init<Value: PostgresArrayEncodable & Sendable>(_ column: Record.Columns, nullable value: @escaping @Sendable (Record) -> Value?) {
        name = column.name
        bind = { record, bindings in try bindings.append(value(record)) }
        let present = column.name + "_present"
        arrays = Arrays(
            parameters: [(present, Self.arrayType(of: Bool.self)), (column.name, Self.arrayType(of: Value.self))],
            selection: "CASE WHEN \(present) THEN \(column.name) END",
            bind: { records, bindings in
                let values = records.map(value)
                bindings.append(values.map { $0 != nil })
                // An absent value's slot needs a stand-in, masked by its flag: any present value
                // will do. With none present the array is empty, and `unnest` pads it with NULLs.
                let standIn = values.lazy.compactMap { $0 }.first
                try bindings.append(standIn.map { standIn in values.map { $0 ?? standIn } } ?? [])
            }
        )
    }

    /// A column whose values PostgreSQL arrays cannot hold (an array itself, bytes).
    init<Value: PostgresEncodable & Sendable>(_ column: Record.Columns, unbatched value: @escaping @Sendable (Record) -> Value) {
        name = column.name
        bind = { record, bindings in try bindings.append(value(record)) }
        arrays = nil
    }

    private static func arrayType<Value: PostgresArrayEncodable>(of type: Value.Type) -> String {
        Value.psqlArrayType.knownSQLName ?? Value.psqlArrayType.description
    }
}

import Logging
import PostgresNIO
import Telemetry

/// A statement of the PostgreSQL store that each connection prepares once, by name, and then
/// only binds and executes. PostgreSQL parses and plans an unnamed statement (what a
/// `PostgresQuery` sends) on every execution, which for the hot one-row statements cost the
/// server as much CPU as the work itself (Docs/benchmarks/HISTORY.md, "Why the PostgreSQL store is as it is").
protocol PreparedSQL: SendableMetatype {
    /// Unique among the store's statements, and a literal: postgres-nio's default name is made
    /// by reflection on every execution.
    static var name: String { get }
    /// The statement, with `$1`… for its bindings.
    static var sql: String { get }
}

/// A ``PreparedSQL`` statement with its bindings, as postgres-nio executes it.
struct PreparedQuery<Text: PreparedSQL>: PostgresPreparedStatement {
    static var name: String { Text.name }
    static var sql: String { Text.sql }
    typealias Row = PostgresRow

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension PostgresConnection {
    /// Every row of the prepared statement `text`, with the bindings `bind` appends (in `$n`
    /// order); returns once the statement has completed.
    func rows<Text: PreparedSQL>(_ text: Text.Type, _ logger: Logger, binding bind: (inout PostgresBindings) throws -> Void) async throws -> [PostgresRow] {
        var bindings = PostgresBindings()
        try bind(&bindings)
        guard StoreSpan.isTraced else { return try await execute(Text.self, bindings, logger) }
        return try await StoreSpan.measure(StoreSpanName.postgresStatement, system: StoreSpanName.postgresql, operation: Text.name) {
            try await execute(Text.self, bindings, logger)
        }
    }

    /// Every row of `text` with `bindings`, once the statement has completed.
    private func execute<Text: PreparedSQL>(_ text: Text.Type, _ bindings: PostgresBindings, _ logger: Logger) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await execute(PreparedQuery<Text>(bindings: bindings), logger: logger) {
            rows.append(row)
        }
        return rows
    }

    /// The rows of the prepared statement `text`, each mapped by `map`.
    func rows<Text: PreparedSQL, T>(
        _ text: Text.Type, _ logger: Logger, binding bind: (inout PostgresBindings) throws -> Void, _ map: (PostgresRow) throws -> T
    ) async throws -> [T] {
        try await rows(text, logger, binding: bind).map(map)
    }
}

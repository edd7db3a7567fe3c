import Logging
import PostgresNIO
import Telemetry

extension PostgresConnection {
    /// Every row of `query`.
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRow] {
        guard StoreSpan.isTraced else { return try await self.query(query, logger: logger).collect() }
        // An unnamed statement is named by its command (`INSERT`, `SELECT`, …).
        let command = query.sql.drop { $0.isWhitespace }.prefix { !$0.isWhitespace }.uppercased()
        return try await StoreSpan.measure(StoreSpanName.postgresStatement, system: StoreSpanName.postgresql, operation: command) {
            try await self.query(query, logger: logger).collect()
        }
    }

    /// Every row of `query`, each mapped by `map`.
    func rows<T>(_ query: PostgresQuery, _ logger: Logger, _ map: (PostgresRow) throws -> T) async throws -> [T] {
        try await rows(query, logger).map(map)
    }

    /// The first row of `query`, mapped by `map`.
    func row<T>(_ query: PostgresQuery, _ logger: Logger, _ map: (PostgresRow) throws -> T) async throws -> T? {
        try await rows(query, logger).first.map(map)
    }

    /// Runs a statement whose rows, if any, do not matter, and returns once it has completed.
    /// (`query` alone returns as soon as a row-returning statement describes its rows, before it
    /// has run: a `SELECT … FOR UPDATE` or `pg_advisory_lock` would not hold its lock yet.)
    func run(_ query: PostgresQuery, _ logger: Logger) async throws {
        _ = try await rows(query, logger)
    }
}

import Domain
import GRDB

extension Database {
    /// The first row of a query, through the connection's statement cache.
    func row(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        try Row.fetchOne(cachedStatement(sql: sql), arguments: arguments)
    }

    /// Every row of a query, through the connection's statement cache.
    func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try Row.fetchAll(cachedStatement(sql: sql), arguments: arguments)
    }

    /// The record of a query's first row, through the connection's statement cache.
    func record<Record: FetchableRecord>(_ type: Record.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> Record? {
        try Record.fetchOne(cachedStatement(sql: sql), arguments: arguments)
    }

    /// The records of every row of a query, through the connection's statement cache.
    func records<Record: FetchableRecord>(_ type: Record.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> [Record] {
        try Record.fetchAll(cachedStatement(sql: sql), arguments: arguments)
    }

    /// A single integer result, e.g. a count.
    func integer(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try Int.fetchOne(cachedStatement(sql: sql), arguments: arguments) ?? 0
    }

    /// Up to `limit` rows of `table` matching `filter`, newest first (`created_at`, then `id`,
    /// both descending), strictly after the position `after` when given: the one query shape of
    /// every newest-first listing, served by an index ending in `(created_at, id)`.
    func newestFirst<Entity>(
        _ columns: String, from table: String, where filter: String, _ arguments: StatementArguments,
        after: RecencyKey<Entity>?, limit: Int
    ) throws -> [Row] {
        var arguments = arguments
        var conditions = filter
        if let after {
            conditions += " AND (created_at, id) < (?, ?)"
            arguments += [after.createdAt.millisecondsSinceEpoch, after.id.rawValue]
        }
        arguments += [limit]
        return try rows("SELECT \(columns) FROM \(table) WHERE \(conditions) ORDER BY created_at DESC, id DESC LIMIT ?", arguments)
    }

    /// Runs a statement through the connection's statement cache.
    func run(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

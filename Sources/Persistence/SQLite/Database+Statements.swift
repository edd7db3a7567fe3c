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

    /// A single integer result, e.g. a count.
    func integer(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try Int.fetchOne(cachedStatement(sql: sql), arguments: arguments) ?? 0
    }

    /// Runs a statement through the connection's statement cache.
    func run(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

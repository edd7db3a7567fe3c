/// A database of a test's own on a throwaway PostgreSQL server, with psql at hand to look at
/// what the service stored, directly rather than through the service.
public struct TestDatabase: Sendable {
    /// The server it lives on.
    public let server: PostgresServer
    /// Its name (a plain identifier).
    public let name: String
    /// `postgres://…/name`, for `svcd --database-url`.
    public let url: String

    /// Creates a new, empty database on `server`.
    public static func create(on server: PostgresServer) async throws -> TestDatabase {
        let url = try await server.createDatabase()
        guard let name = url.split(separator: "/").last.map(String.init) else { throw ChildFailure("no database name in \(url)") }
        return TestDatabase(server: server, name: name, url: url)
    }

    /// Runs `sql` in this database and returns psql's unaligned output, trimmed.
    public func psql(_ sql: String) async throws -> String {
        try await server.psql(sql, database: name)
    }

    /// The single integer `sql` selects.
    public func integer(_ sql: String) async throws -> Int {
        let text = try await psql(sql)
        guard let value = Int(text) else { throw ChildFailure("\(sql) returned \(text), not an integer") }
        return value
    }
}

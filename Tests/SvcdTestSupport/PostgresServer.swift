import ServerProcesses

/// The tests' throwaway PostgreSQL server (see ``PostgresDevServer``).
public typealias PostgresServer = PostgresDevServer

/// Starts a PostgreSQL server, runs `body` with it, and always stops it (also when `body` throws).
public func withPostgres<T>(
    database: String = "svc", port: Int? = nil, fsync: Bool = true, _ body: (PostgresServer) async throws -> T
) async throws -> T {
    let server = try await PostgresServer.start(database: database, port: port, fsync: fsync)
    let result: T
    do {
        result = try await body(server)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
    return result
}

import Domain
import Logging
import NIOCore
import Persistence
import SvcdTestSupport
import Testing
import Transport

/// A throwaway PostgreSQL server for one suite: started before its tests, stopped after them.
/// Each `World.open(.postgres)` in the suite gets a database of its own on it.
struct PostgresSuite: SuiteTrait, TestScoping {
    @TaskLocal static var current: PostgresServer?

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // These suites check rules, not durability: commits need not reach the disk.
        try await withPostgres(fsync: false) { server in
            try await PostgresSuite.$current.withValue(server) {
                try await function()
            }
        }
    }

    /// A new, migrated store on a database of its own on the suite's server.
    static func newStore(clock: any WallClock) async throws -> PostgresStore {
        let server = try #require(current, "the suite needs the .postgres trait to run PostgreSQL tests")
        return try await openStore(url: try await server.createDatabase(), clock: clock)
    }

    /// A started store on `url` (migrated unless told otherwise), with a pool small enough for
    /// many at once; `configure` changes the configuration last.
    static func openStore(
        url: String, clock: any WallClock = SystemWallClock(), connections: Int = 8, migrate: Bool = true, eventLoop: (any EventLoop)? = nil,
        configure: (inout PostgresStore.Configuration) -> Void = { _ in }
    ) async throws -> PostgresStore {
        var configuration = PostgresStore.Configuration(url: try PostgresURL(parsing: url))
        if let eventLoop { configuration.eventLoop = eventLoop }
        configuration.maximumConnections = connections
        // These suites race hundreds of writes on one row through a small pool: waiting long for
        // a connection is expected here, and they check rules, not availability.
        configuration.connectionWait = .seconds(60)
        configuration.queueTimeTarget = nil
        configuration.lockTimeout = .seconds(60)
        configuration.statementTimeout = .seconds(60)
        // A transaction's next statement may come seconds late when the suites' servers and
        // hundreds of racing tasks share two cores; ended by the server, the test would fail on
        // a lost connection it did not test.
        configuration.idleInTransactionTimeout = .seconds(60)
        configure(&configuration)
        var logger = Logger(label: "tests.postgres")
        logger.logLevel = .warning
        let store = PostgresStore(configuration: configuration, clock: clock, events: WireEventEncoding(), logger: logger)
        store.start()
        if migrate { try await store.migrate() }
        return store
    }
}

extension Trait where Self == PostgresSuite {
    /// Runs the suite with a throwaway PostgreSQL server (`World.open(.postgres)` uses it).
    static var postgres: Self { PostgresSuite() }
}

extension PostgresURL {
    /// The URL again as text, password included (tests have none).
    var testURL: String { "postgres://\(user)@\(host):\(port)/\(database)?sslmode=\(tlsMode.rawValue)" }
}

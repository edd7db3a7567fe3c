import Domain
import Foundation
@testable import Persistence
import SvcdTestSupport
import Synchronization
import Testing
import Transport

/// Busy is not down: while every pooled connection is in use by operations the database is
/// answering, a request waits for one at most the queue-time target and is told `busy`
/// (`overloaded` on the wire), the store stays reachable (no outage warning); `unavailable` is
/// kept for a database that does not answer.
@Suite(.postgres) struct PostgresBusyTests {
    @Test func waitingForAConnectionWhileAllAreInUseIsBusyWithinTheTargetNotAnOutage() async throws {
        let server = try #require(PostgresSuite.current)
        var configuration = PostgresStore.Configuration(url: try PostgresURL(parsing: try await server.createDatabase()))
        configuration.maximumConnections = 2
        configuration.connectionWait = .seconds(5)
        configuration.queueTimeTarget = .milliseconds(100)
        let store = PostgresStore(configuration: configuration, events: WireEventEncoding(), logger: .init(label: "tests.postgres"))
        store.start()
        try await store.migrate()
        let users = PostgresUserRepository(store: store)

        // Both connections held by statements the database is running.
        let holders = (0..<2).map { _ in
            Task { try await store.read { connection, logger in try await connection.run("SELECT pg_sleep(2)", logger) } }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while store.lossWatch.operationsRunning < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(store.lossWatch.operationsRunning == 2, "both connections in use")

        let clock = ContinuousClock()
        for operation in ["read", "write"] {
            let started = clock.now
            do {
                if operation == "read" {
                    _ = try await users.user(id: UserID("u-nobody"))
                } else {
                    _ = try await users.insert(User(id: UserID("u-busy"), name: "Busy", email: EmailAddress("busy@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0)))
                }
                Issue.record("the \(operation) got a connection while both were held")
            } catch let failure as RepositoryFailure {
                guard case .busy(let reason) = failure else {
                    Issue.record("the \(operation) failed with \(failure), not busy")
                    continue
                }
                #expect(reason.contains("in use"), "\(reason)")
                #expect(WireError(mapping: failure).code == .overloaded)
            }
            let waited = clock.now - started
            // The target, not the 5 s connection wait (a generous bound for a loaded machine).
            #expect(waited < .seconds(2), "the \(operation) waited \(waited)")
            #expect(store.isReachable, "a busy pool is not an outage")
        }
        for holder in holders { try await holder.value }

        // The refused write wrote nothing, and with connections free again requests are served.
        #expect(try await users.user(id: UserID("u-busy")) == nil)
        #expect(try await server.psql("SELECT count(*) FROM users", database: store.url.database) == "0")
        #expect(try await users.insert(User(id: UserID("u-after"), name: "After", email: EmailAddress("after@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0))) != .notFound)
        #expect(store.isReachable)
        await store.close()
    }
}

import Domain
import Foundation
@testable import Persistence
import SvcdTestSupport
import Synchronization
import Testing
import Transport

/// Busy is not down: while pooled connections are in use by operations the database is
/// answering (others succeed while it waits), a request waits for one at most the queue-time
/// target and is told `busy` (`overloaded` on the wire), the store stays reachable (no outage
/// warning); `unavailable` is kept for a database that does not answer.
@Suite(.postgres) struct PostgresBusyTests {
    @Test func waitingForAConnectionWhileAllAreInUseIsBusyWithinTheTargetNotAnOutage() async throws {
        let server = try #require(PostgresSuite.current)
        var configuration = PostgresStore.Configuration(url: try PostgresURL(parsing: try await server.createDatabase()))
        configuration.maximumConnections = 2
        configuration.connectionWait = .seconds(5)
        configuration.queueTimeTarget = .milliseconds(300)
        let store = PostgresStore(configuration: configuration, events: WireEventEncoding(), logger: .init(label: "tests.postgres"))
        store.start()
        try await store.migrate()
        let users = PostgresUserRepository(store: store)

        // Forty readers keep both connections busy with short statements the database answers
        // one after another (each of them, too, is told busy at times, and reads again).
        let load = (0..<40).map { _ in
            Task {
                while !Task.isCancelled {
                    _ = try? await store.read { connection, logger in try await connection.run("SELECT pg_sleep(0.05)", logger) }
                }
            }
        }
        var saturated = false
        let deadline = ContinuousClock.now + .seconds(10)
        while !saturated && ContinuousClock.now < deadline {
            saturated = store.lossWatch.operationsRunning >= 2
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(saturated, "both connections in use")

        // Reads and writes sent into that: a probe may get its turn (a connection can come free
        // just before its wait ends), but every one refused is busy, within the target, never
        // unavailable, and the store stays reachable.
        let clock = ContinuousClock()
        var refused = 0
        var refusedWrites: [UserID] = []
        for probe in 0..<10 {
            let operation = probe % 2 == 0 ? "read" : "write"
            let started = clock.now
            do {
                if operation == "read" {
                    _ = try await users.user(id: UserID("u-nobody"))
                } else {
                    _ = try await users.insert(User(
                        id: UserID("u-busy-\(probe)"), name: "Busy", email: EmailAddress("busy\(probe)@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0)
                    ))
                }
            } catch let failure as RepositoryFailure {
                guard case .busy(let reason) = failure else {
                    Issue.record("the \(operation) failed with \(failure), not busy")
                    continue
                }
                refused += 1
                if operation == "write" { refusedWrites.append(UserID("u-busy-\(probe)")) }
                #expect(reason.contains("while others were in use"), "\(reason)")
                #expect(WireError(mapping: failure).code == .overloaded)
                // The target, not the 5 s connection wait (a generous bound for a loaded machine).
                #expect(clock.now - started < .seconds(2), "the \(operation) waited \(clock.now - started)")
            }
            #expect(store.isReachable, "a busy pool is not an outage")
        }
        #expect(refused > 0, "forty readers on two connections never kept a probe waiting past the target")
        for reader in load { reader.cancel() }
        for reader in load { await reader.value }

        // A refused write wrote nothing; with connections free again requests are served.
        for id in refusedWrites { #expect(try await users.user(id: id) == nil, "\(id) was refused busy yet stored") }
        #expect(try await users.insert(User(id: UserID("u-after"), name: "After", email: EmailAddress("after@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0))) != .notFound)
        #expect(store.isReachable)
        await store.close()
    }
}

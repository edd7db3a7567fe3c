import Domain
import Persistence
import SvcdTestSupport
import Synchronization
import Testing

/// A store operation whose connection the server closes while the operation still has queries
/// to send (as when the database shuts down, which terminates every session) ends at once with
/// an error, instead of waiting for a reply that never comes: postgres-nio drops a query written
/// to a connection that has already closed, and only the store's watch on the connection ends
/// the wait.
@Suite(.postgres) struct PostgresConnectionLossTests {
    @Test func anOperationWhoseSessionIsTerminatedBetweenTwoQueriesFailsAtOnce() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        let database = try #require(url.split(separator: "/").last.map(String.init))
        let store = try await PostgresSuite.openStore(url: url)
        let clock = ContinuousClock()
        let terminatedAt = Mutex<ContinuousClock.Instant?>(nil)
        // The seeding lock runs its body between the lock's queries on one connection: the
        // body ends that session, and the unlock query is then sent on a closed connection.
        let outcome = await firstOf(seconds: 20) { () -> Result<Void, any Error> in
            do {
                try await store.withSeedingLock {
                    let pid = try await server.psql(
                        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
                            + "AND database = (SELECT oid FROM pg_database WHERE datname = '\(database)')", database: database)
                    // Stamped before the request: the store may see the connection drop, and end
                    // this body, before psql has returned.
                    terminatedAt.withLock { $0 = clock.now }
                    _ = try await server.psql("SELECT pg_terminate_backend(\(pid))", database: database)
                    // Without the watch, the unlock query would go out on the closed connection.
                    let deadline = clock.now.advanced(by: .seconds(10))
                    while try await server.psql("SELECT count(*) FROM pg_stat_activity WHERE pid = \(pid)", database: database) != "0" {
                        guard clock.now < deadline else { throw ChildFailure("backend \(pid) survived pg_terminate_backend") }
                        try await Task.sleep(for: .milliseconds(10))
                    }
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        let ended = clock.now
        await store.close()
        let result = try #require(outcome, "the operation had not ended 20 s after its session was terminated")
        #expect(throws: (any Error).self, "the operation cannot have succeeded on a terminated session") { try result.get() }
        if case .failure(let error) = result {
            #expect(!(error is ChildFailure), "the operation must fail for the lost connection, not for psql: \(error)")
        }
        let terminated = try #require(terminatedAt.withLock { $0 }, "the body never asked for the session to be terminated: \(result)")
        #expect(ended - terminated < .seconds(5), "the operation ended \(ended - terminated) after its session was terminated")
    }

    /// `body`'s value, or `nil` when it has not returned after `seconds` (it is then left running).
    private func firstOf<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async -> T) async -> T? {
        let (stream, continuation) = AsyncStream<T?>.makeStream()
        let work = Task { continuation.yield(await body()) }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            continuation.yield(nil)
        }
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next() ?? nil
        timer.cancel()
        if first == nil { work.cancel() }
        return first
    }
}

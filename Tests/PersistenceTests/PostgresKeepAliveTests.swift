import Foundation
@testable import Persistence
import RestaurantTesting
import SvcdTestSupport
import Testing

/// The store uses as many connections at once as its pool keeps open while idle, every interval,
/// since the pool's own keep-alive is off (``PostgresKeepAlive``).
@Suite(.postgres) struct PostgresKeepAliveTests {
    @Test func asManyConnectionsAsThePoolKeepsWhileIdleRunTheKeepAliveAtOnceEveryInterval() async throws {
        let database = try await TestDatabase.create(on: try #require(PostgresSuite.current))
        let store = try await PostgresSuite.openStore(url: database.url, connections: 4) { $0.keepAliveInterval = .milliseconds(200) }
        // Nothing else of the store's uses a connection meanwhile.
        await store.sequencer.stopAndWait()
        #expect(PostgresStore.minimumConnections(store.configuration) == 2)

        let kept = "SELECT pid, extract(epoch FROM query_start) FROM pg_stat_activity WHERE datname = current_database() AND query = '\(PostgresKeepAlive.statement)' ORDER BY pid"
        func keptAlive() async throws -> [String: Double] {
            let rows = try await database.psql(kept).split(separator: "\n")
            return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                let columns = row.split(separator: "|")
                guard columns.count == 2, let started = Double(columns[1]) else { return nil }
                return (String(columns[0]), started)
            })
        }
        var first: [String: Double] = [:]
        try await waitUntil("two connections ran the keep-alive") {
            first = try await keptAlive()
            return first.count == 2
        }
        // Again, on two connections at once (the pool decides which: one that is being given
        // back as the round starts makes it open another).
        let firstRound = first.values.max() ?? 0
        try await waitUntil("two connections ran it again") {
            try await keptAlive().values.filter { $0 > firstRound }.count == 2
        }
        await store.close()
    }
}

import Foundation
@testable import Persistence
import RestaurantTesting
import SvcdTestSupport
import Testing

/// The event numbering's statements keep to the index of unnumbered events whatever the
/// statistics say, so a backlog of waiting events costs each numbering its batch, not the
/// backlog times the batch.
@Suite(.postgres) struct PostgresEventNumberingTests {
    @Test func aBacklogIsNumberedByItsIndexAndInInsertionOrderWhateverTheStatisticsSay() async throws {
        let (database, store) = try await logWithStatisticsAsSet()
        // Statistics taken on a log of 20,000 while two events waited, then a backlog of 5,000
        // (as after a burst, or while no instance could number).
        try await insertUnnumbered(20_000, into: database)
        _ = try await database.psql("UPDATE events SET seq = id")
        try await insertUnnumbered(2, into: database)
        _ = try await database.psql("VACUUM ANALYZE events")
        try await insertUnnumbered(4_998, into: database)
        let plan = try await database.psql("PREPARE n(bigint, bigint) AS \(NumberEvents.sql); EXPLAIN EXECUTE n(0, 1000)")
        #expect(plan.contains("Tid Scan"), "each row is updated where it was found:\n\(plan)")
        #expect(!plan.contains("Join Filter"), "no waiting event is compared with every one of the batch:\n\(plan)")

        let numberedBefore = try await database.integer("SELECT count(*) FROM events WHERE seq IS NOT NULL")
        _ = try await database.psql("UPDATE event_sequence SET last_seq = \(numberedBefore)")
        for _ in 0..<5 {
            let (_, count) = try await store.numberEvents(batch: 1_000)
            #expect(count == 1_000)
        }
        #expect(try await database.integer("SELECT count(*) FROM events WHERE seq IS NULL") == 0)
        #expect(try await database.integer("SELECT max(seq) FROM events") == 25_000)
        #expect(try await database.integer("SELECT count(*) FROM (SELECT seq, row_number() OVER (ORDER BY id) AS n FROM events) AS e WHERE seq <> n") == 0,
                "seqs follow insertion order without gaps")
        await store.close()
    }

    @Test func theCheckForWaitingEventsUsesTheirIndexWhenStatisticsSayMostWait() async throws {
        let (database, store) = try await logWithStatisticsAsSet()
        // Statistics taken during a backlog (every event waiting), then all numbered.
        try await insertUnnumbered(5_000, into: database)
        _ = try await database.psql("ANALYZE events")
        _ = try await database.psql("UPDATE events SET seq = id")
        let plan = try await database.psql("PREPARE w(bigint) AS \(AnyUnnumbered.sql); EXPLAIN EXECUTE w(9223372036854775807)")
        #expect(plan.contains("events_unnumbered"), "the check reads the index of waiting events:\n\(plan)")
        #expect(!plan.contains("Seq Scan"), "not the whole log:\n\(plan)")
        await store.close()
    }

    /// A new database with the store's schema, whose `events` statistics change only when the
    /// test analyzes it (autovacuum off for the table), and a store on it whose own sequencer is
    /// stopped: the test's numberings are the only ones (the sequencer numbers these events too,
    /// as stale, whenever it gets to them first).
    private func logWithStatisticsAsSet() async throws -> (TestDatabase, PostgresStore) {
        let database = try await TestDatabase.create(on: try #require(PostgresSuite.current))
        let store = try await PostgresSuite.openStore(url: database.url, connections: 2)
        await store.sequencer.stopAndWait()
        _ = try await database.psql("ALTER TABLE events SET (autovacuum_enabled = false)")
        return (database, store)
    }

    /// `count` unnumbered events of their own keys.
    private func insertUnnumbered(_ count: Int, into database: TestDatabase) async throws {
        _ = try await database.psql(
            "INSERT INTO events (type, at, key, data) SELECT 'UserRegistered', 1, 'k' || g || '-' || random(), '{}' FROM generate_series(1, \(count)) AS g"
        )
    }
}

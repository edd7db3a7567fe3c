import Domain
import PostgresNIO

/// The event log in PostgreSQL's `events` table, shared by every instance of a cluster. The
/// PostgreSQL repositories append their writes' events, unnumbered, in their own transactions;
/// ``PostgresEventSequencer`` numbers them after commit. This reads the numbered log, follows its
/// newest end (the store's ``EventTail``, moved by the sequencer's notifications) and prunes it.
///
/// A struct: it holds no state of its own.
public struct PostgresEventRepository: EventRepository {
    private let store: PostgresStore

    /// The log of `store`'s database.
    public init(store: PostgresStore) {
        self.store = store
    }

    /// Events after `after` of `types`, in seq order, with the log's bounds: one statement, so
    /// one snapshot.
    public func events(after: Int64, types: Set<String>?, limit: Int) async throws -> EventLogSlice {
        try await store.read { connection, logger in
            let rows = try await connection.rows(SelectEvents.self, logger) { bindings in
                bindings.append(after)
                bindings.append(Int64(limit))
                bindings.append(types.map { Array($0) } ?? [])
                bindings.append(types == nil)
            }
            guard let bounds = rows.first.map(PostgresRandomAccessRow.init) else { throw StoreError.inconsistentWrite("event_sequence has no row") }
            let last = try bounds["last_seq"].decode(Int64.self)
            let first = try bounds["first_seq"].decode(Int64?.self)
            let events = try rows.compactMap { row -> LoggedEvent? in
                guard try PostgresRandomAccessRow(row)[EventRecord.Columns.seq.name].decode(Int64?.self) != nil else { return nil }
                return try EventRecord(row).event()
            }
            return EventLogSlice(events: events, lastSeq: last, firstKeptSeq: first ?? last + 1)
        }
    }

    /// The highest seq handed out.
    public func lastSeq() async throws -> Int64 {
        try await store.read { connection, logger in try await PostgresEventSequencer.readLastSeq(connection, logger) }
    }

    /// Waits until some instance numbered events after `after`, then reads them.
    public func nextEvents(after: Int64, limit: Int) async throws -> [LoggedEvent] {
        try await store.tail.next(after: after, limit: limit) { after, limit in
            try await events(after: after, types: nil, limit: limit).events
        }
    }

    /// Deletes the numbered events before the first one written at or after `cutoff`, in
    /// statements of at most ``pruneBatch`` rows. Any instance may prune; the statements are
    /// idempotent.
    public func removeEvents(writtenBefore cutoff: Timestamp) async throws -> Int {
        var removed = 0
        while true {
            let count = try await store.writeStatement { connection, logger in
                try await connection.rows(PruneEvents.self, logger) { bindings in
                    bindings.append(cutoff.millisecondsSinceEpoch)
                    bindings.append(Int64(Self.pruneBatch))
                }.first?.decode(Int.self) ?? 0
            }
            removed += count
            guard count == Self.pruneBatch else { return removed }
        }
    }

    /// Rows one pruning statement deletes at most.
    static let pruneBatch = 10_000
}

/// The log's bounds (`last_seq`, the oldest kept seq) on every row, and the page: the numbered
/// events after `$1` of the types `$3` (any when `$4`), at most `$2`. The bounds come on a row of
/// their own when the page is empty (its event columns NULL).
private enum SelectEvents: PreparedSQL {
    static let name = "svc_select_events"
    static let sql = """
        WITH page AS (
            SELECT \(EventRecord.postgresNumberedSelection) FROM events
            WHERE seq > $1 AND ($4 OR type = ANY($3::text[])) ORDER BY seq LIMIT $2
        )
        SELECT (SELECT last_seq FROM event_sequence) AS last_seq,
            (SELECT min(seq) FROM events WHERE seq IS NOT NULL) AS first_seq, page.*
        FROM (SELECT 1) AS bounds LEFT JOIN page ON true
        ORDER BY page.seq
        """
}

/// One pruning step: the oldest numbered events (at most `$2`) before the first one written at
/// or after `$1`, never the newest; how many. The scan for that first young event walks the seq index from the
/// oldest: as many rows as are about to go.
private enum PruneEvents: PreparedSQL {
    static let name = "svc_prune_events"
    static let sql = """
        WITH young AS (
            SELECT seq FROM events WHERE seq IS NOT NULL AND at >= $1 ORDER BY seq LIMIT 1
        ), doomed AS (
            SELECT seq FROM events
            WHERE seq < least(coalesce((SELECT seq FROM young), 9223372036854775807), (SELECT last_seq FROM event_sequence))
            ORDER BY seq LIMIT $2
        ), removed AS (
            DELETE FROM events WHERE seq IN (SELECT seq FROM doomed) RETURNING 1
        )
        SELECT count(*)::bigint FROM removed
        """
}

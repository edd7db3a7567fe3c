import Domain
import GRDB

/// The event log in SQLite's `events` table. Every SQLite repository appends its writes' events
/// in their own transactions (``SQLiteStore/write(boundTo:_:committed:)``), where the one writer
/// numbers them in commit order; this reads the log, follows its newest end (the store's
/// ``EventTail``, fed at each commit, so the live stream reads nothing back) and prunes it.
///
/// A struct: the log is the database's, the tail the store's.
public struct SQLiteEventRepository: EventRepository {
    private let store: SQLiteStore

    /// The log of `store`.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// The highest seq handed out (pruning keeps the newest event), 0 before the first event.
    static func lastSeq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM events")) ?? 0
    }

    /// Events after `after` of `types`, in seq order, with the log's bounds, in one read
    /// transaction.
    public nonisolated(nonsending) func events(after: Int64, types: Set<String>?, limit: Int) async throws -> EventLogSlice {
        try await store.read { db in
            let events: [LoggedEvent]
            if let types {
                let sorted = types.sorted()
                let placeholders = Array(repeating: "?", count: sorted.count).joined(separator: ", ")
                // Not cached: one statement per set of types would fill the connection's cache.
                events = sorted.isEmpty ? [] : try EventRecord.fetchAll(
                    db, sql: "SELECT \(EventRecord.selection) FROM events WHERE seq > ? AND type IN (\(placeholders)) ORDER BY seq LIMIT ?",
                    arguments: StatementArguments([after] + sorted.map { $0 as any DatabaseValueConvertible } + [limit])
                ).map { try $0.event() }
            } else {
                events = try db.records(EventRecord.self, Self.selectAfter, [after, limit]).map { try $0.event() }
            }
            let last = try Self.lastSeq(db)
            let first = try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM events ORDER BY seq LIMIT 1")) ?? last + 1
            return EventLogSlice(events: events, lastSeq: last, firstKeptSeq: first)
        }
    }

    /// The highest seq handed out.
    public nonisolated(nonsending) func lastSeq() async throws -> Int64 {
        try await store.read(Self.lastSeq)
    }

    /// Waits for events after `after` on the store's tail; reads the log for those it no longer
    /// holds.
    public nonisolated(nonsending) func nextEvents(after: Int64, limit: Int) async throws -> [LoggedEvent] {
        try await store.tail.next(after: after, limit: limit) { after, limit in
            // The live stream's own read, no client's request: it waits for a read thread as long
            // as it takes rather than be refused over and over under overload.
            try await QueueTimeExemption.exempt {
                try await store.read { db in try db.records(EventRecord.self, Self.selectAfter, [after, limit]).map { try $0.event() } }
            }
        }
    }

    /// Deletes the events before the first one written at or after `cutoff`, in transactions of
    /// at most ``pruneBatch`` rows so a large backlog does not hold the writer for long. The
    /// newest event is always kept: its seq is where the next one continues.
    public nonisolated(nonsending) func removeEvents(writtenBefore cutoff: Timestamp) async throws -> Int {
        var removed = 0
        while true {
            let count = try await store.write { db in
                // Scans from the oldest event and stops at the first young one: as many rows as
                // are about to be deleted.
                let young = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT seq FROM events WHERE at >= ? ORDER BY seq LIMIT 1"), arguments: [cutoff.millisecondsSinceEpoch]
                )
                let newest = try Self.lastSeq(db)
                try db.run(
                    "DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE seq < ? ORDER BY seq LIMIT ?)",
                    [min(young ?? newest, newest), Self.pruneBatch]
                )
                return db.changesCount
            }
            removed += count
            guard count == Self.pruneBatch else { return removed }
        }
    }

    /// Rows one pruning transaction deletes at most.
    static let pruneBatch = 10_000

    private static let selectAfter = "SELECT \(EventRecord.selection) FROM events WHERE seq > ? ORDER BY seq LIMIT ?"
}

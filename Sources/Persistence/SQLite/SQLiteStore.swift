import Domain
import Foundation
import GRDB
import Logging
import Metrics
import Synchronization
import Telemetry

/// The SQLite database behind the repositories: one file in WAL mode with `synchronous = FULL`,
/// so a committed transaction survives a power cut, and a ``GroupCommitter`` so that many
/// concurrent writes share one commit.
///
/// Reads run on GRDB's reader connections (WAL lets them proceed during writes); writes go
/// through ``write(_:)`` and commit on the committer's own thread. Everything blocking runs there,
/// on threads marked by ``permitBlockingReadsOnThisThread()`` or on GRDB's dispatch queues, never
/// on Swift's cooperative pool.
public final class SQLiteStore: Sendable {
    /// The database file.
    public let path: String
    /// Stamps idempotency keys' bindings with the time they were made, and events with their
    /// write's time.
    let clock: any WallClock
    /// Encodes the events writes append; `nil`: events are written nowhere (a benchmark's
    /// comparison only).
    let events: (any EventEncoding)?
    /// The newest events, handed over at each commit, for the live stream.
    let tail: EventTail

    /// Whether writes find the disk full (``write(_:committed:)`` keeps it).
    public let fullness: StorageFullness

    private let pool: DatabasePool
    private let committer: GroupCommitter
    /// Where a read from a thread not marked by ``permitBlockingReadsOnThisThread()`` runs.
    private let readExecutor: (any TaskExecutor)?
    /// How long such a read may wait for a thread of ``readExecutor`` before it is refused.
    private let queueTimeTarget: Duration?
    /// How long the oldest read queued for ``readExecutor`` has waited: past the queue-time
    /// target a read is refused before it queues.
    private let readBacklog: (@Sendable () -> Duration)?
    private let readsRefused = Atomic<Int>(0)

    /// Opens (creating if needed) the database at `path` and migrates it to the current schema.
    /// `clock` stamps idempotency keys' bindings (their age decides when they are forgotten) and
    /// events; `events` encodes the events every write that changes something appends in its own
    /// transaction (`nil` appends none: only for measuring what the event log costs); each group
    /// commit's size and duration go to `metrics` (by default the process-wide
    /// `MetricsSystem.factory`). A write that waited longer than `queueTimeTarget` for its group
    /// commit is refused unrun (``RepositoryFailure/busy(reason:)``), and so is a read that waited
    /// longer for a thread of `readExecutor`, or that would queue behind one that did (as
    /// `readBacklog` tells: how long the oldest read queued for `readExecutor` has waited); `nil`
    /// refuses none. A full
    /// disk is logged to `logger` (at most once per ``StorageFullness/logInterval``).
    ///
    /// `readExecutor`, when given, runs the reads of callers on other threads than those marked
    /// by ``permitBlockingReadsOnThisThread()``; its own threads must be marked so. `nil` hands
    /// them to GRDB's dispatch queues, whose worker threads libdispatch starts and ends with the
    /// load: a service that must keep a fixed set of threads passes its read threads.
    public init(
        path: String, clock: any WallClock = SystemWallClock(), events: (any EventEncoding)?, queueTimeTarget: Duration? = nil,
        readExecutor: (any TaskExecutor)? = nil, readBacklog: (@Sendable () -> Duration)? = nil,
        metrics: any MetricsFactory = MetricsSystem.factory, logger: Logger = Logger(label: "svc.sqlite")
    ) throws {
        self.readExecutor = readExecutor
        self.readBacklog = readBacklog
        self.queueTimeTarget = queueTimeTarget
        fullness = StorageFullness(place: path, logger: logger, metrics: metrics)
        self.clock = clock
        self.events = events
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Another process holding the write lock (a backup, a second tool) is waited for
        // instead of failing at once.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in try db.execute(sql: SQLiteStore.connectionSettings) }
        pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction(Self.syncEveryCommit)
        self.path = path
        try StoreSchema.migrator.migrate(pool)
        tail = EventTail(lastSeq: try pool.read(SQLiteEventRepository.lastSeq))
        committer = GroupCommitter(writer: pool, queueTimeTarget: queueTimeTarget, metrics: metrics)
    }

    /// Runs `body` in the next group commit; returns once it is durable. `committed` (see
    /// `GroupCommitter.write`) runs right after the commit, in commit order. A disk with no room
    /// left is ``RepositoryFailure/storageFull(reason:)`` (nothing was written).
    func write<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, committed: (@Sendable (T) -> Void)? = nil
    ) async throws -> T {
        do {
            let value = try await StoreSpan.measure(StoreSpanName.sqliteWrite, system: StoreSpanName.sqlite) {
                let (value, timing) = try await committer.timedWrite(body, committed: committed)
                StoreSpan.record(
                    StoreSpanName.sqliteCommit, system: StoreSpanName.sqlite, from: timing.started, to: timing.ended,
                    attributes: [SpanAttributeName.batchSize: timing.batchSize]
                )
                return value
            }
            fullness.wrote()
            return value
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw fullness.refused(error)
        }
    }

    /// Runs `body` in the next group commit as the write `claim` binds, and returns once it is
    /// durable. When the key is bound already, `body` does not run and the claim's answer to the
    /// binding is thrown (``IdempotentReplay`` or a conflict). Otherwise, when `body` returns what
    /// it stored (its write succeeded), the key is bound to its result and its event, if it
    /// changed something, is appended to the event log, in the same transaction. The event reaches
    /// the live stream's tail right after the commit, in commit order.
    func write<T: Sendable>(
        boundTo claim: IdempotencyClaim?, _ body: @escaping @Sendable (Database) throws -> (T, StoredWrite?),
        committed: (@Sendable (T) -> Void)? = nil
    ) async throws -> T {
        let clock = self.clock, tail = self.tail
        let events = EventRecording.encoder(self.events)
        // Read here: the body runs on the commit thread, outside the writing task.
        let traceparent = WriterTrace.traceparent
        return try await write({ db -> (T, LoggedEvent?) in
            if let claim, let bound = try db.record(IdempotencyRecord.self, SQLiteIdempotencyRepository.selectBinding, [claim.key]) {
                throw claim.answer(toBound: bound.binding())
            }
            let (value, stored) = try body(db)
            guard let stored else { return (value, nil) }
            let now = clock.now()
            if let claim {
                try db.insert(IdempotencyRecord(key: claim.key, claim.binding(for: stored.result), madeAt: now))
            }
            let prepared: PreparedEvent
            switch stored.event {
            case nil, .written?: return (value, nil)
            case .prepared(let ready)?: prepared = ready
            case .domain(let event)?:
                guard let events else { return (value, nil) }
                prepared = PreparedEvent(event, encodedBy: events, at: now, traceparent: traceparent)
            }
            try db.insert(prepared.record)
            return (value, prepared.logged(seq: db.lastInsertedRowID))
        }, committed: { written in
            if let logged = written.1 { tail.committed(logged) }
            committed?(written.0)
        }).0
    }

    /// `event` encoded and stamped now, for a write that will append it (see ``PreparedEvent``);
    /// `nil` when the current task's writes append no events.
    func prepare(_ event: DomainEvent) -> PreparedEvent? {
        EventRecording.encoder(events).map { PreparedEvent(event, encodedBy: $0, at: clock.now()) }
    }

    /// The settings of every connection. With WAL, `synchronous = FULL` syncs the log at every
    /// commit: durable across power loss (GRDB resets the writer to NORMAL after these run;
    /// ``syncEveryCommit(_:)`` sets it back). A larger page cache and a less frequent checkpoint
    /// (every ~40 MB of log instead of 4 MB) spread the cost of the checkpoint's fsyncs; the
    /// journal size limit cuts the `-wal` file back to 4 MB whenever a checkpoint has emptied it,
    /// so the file does not keep its largest size for the life of the process.
    public static let connectionSettings = """
        PRAGMA synchronous = FULL;
        PRAGMA cache_size = -65536;
        PRAGMA wal_autocheckpoint = \(servingCheckpointPages);
        PRAGMA journal_size_limit = 4194304;
        PRAGMA temp_store = MEMORY;
        """

    /// Makes `db` sync the WAL at every commit (`synchronous = FULL`) and checks that it does;
    /// for the connection that commits, once it is open.
    ///
    /// ``connectionSettings`` asks for FULL when a connection opens, but GRDB's `DatabasePool`
    /// (and a `DatabaseQueue` in WAL mode) then switches the writer to WAL and sets
    /// `synchronous = NORMAL`, which keeps commits safe from a crash of the process but not from
    /// a power cut or a crash of the OS: an `ok` could then name a write that is lost.
    public static func syncEveryCommit(_ db: Database) throws {
        try db.execute(sql: "PRAGMA synchronous = FULL")
        let mode = try Int.fetchOne(db, sql: "PRAGMA synchronous")
        guard mode == fullSynchronous else { throw StoreError.syncNotEveryCommit(mode: mode) }
    }

    /// `PRAGMA synchronous`'s value for FULL.
    static let fullSynchronous = 2

    /// Runs `body`, a bulk load before anything is acknowledged to a client (seeding the sample
    /// data), without a sync of the WAL per commit, then makes all of it durable at once.
    ///
    /// Seeding runs thousands of writes one after another, each its own commit; syncing each
    /// took svcd's start from under a second to 8–11 s. During `body` the writer commits with
    /// `synchronous = NORMAL` (atomic and consistent, but a power cut may lose the last
    /// commits); afterwards, if `body` committed anything, a checkpoint syncs the log, copies it
    /// into the database file, syncs that and empties the `-wal` file (seeding writes tens of
    /// megabytes of log), and every commit after it syncs again (``syncEveryCommit(_:)``), also
    /// when `body` throws. A load that committed nothing (the store was seeded already) leaves
    /// nothing to sync, and start-up does not wait for a checkpoint.
    ///
    /// The log is checkpointed every ``bulkLoadCheckpointPages`` pages meanwhile, not every
    /// 10,000 as in service: a load's thousands of small commits would otherwise grow the `-wal`
    /// file to tens of megabytes for a store of under one (a 16 MiB disk could not take the
    /// 720 KB sample); so a load needs little more room than the store it makes.
    public func bulkLoad<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let pool = self.pool
        try await Self.offThePool {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = \(Self.bulkLoadCheckpointPages)")
            }
        }
        let commitsBefore = committer.statistics.commits
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        let committed = committer.statistics.commits != commitsBefore
        do {
            try await Self.offThePool {
                try pool.writeWithoutTransaction { db in
                    if committed { _ = try db.checkpoint(.truncate) }
                    try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.servingCheckpointPages)")
                    try Self.syncEveryCommit(db)
                }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw fullness.refused(error)
        }
        return try result.get()
    }

    /// `wal_autocheckpoint` while serving (``connectionSettings``): ~40 MB of log between checkpoints.
    static let servingCheckpointPages = 10_000
    /// `wal_autocheckpoint` during ``bulkLoad(_:)``: ~400 KB of log between checkpoints.
    static let bulkLoadCheckpointPages = 100

    /// The highest seq of the event log, as of the last commit.
    public var lastEventSeq: Int64 { tail.lastSeq }

    /// Whether the store's commit thread still runs (until ``close()``, or until the store is gone).
    var commitThread: CommitThreadLife { committer.commitThread }

    /// How many commits made how many writes durable since the store was opened.
    public var commitStatistics: GroupCommitStatistics { committer.statistics }

    /// Reads refused unrun since the store was opened because they waited longer than the
    /// queue-time target for a read thread.
    public var refusedReads: Int { readsRefused.load(ordering: .relaxed) }

    /// Runs `body` on a reader connection, inside a read transaction (a consistent snapshot):
    /// right here on a thread marked by ``permitBlockingReadsOnThisThread()``, otherwise on the
    /// store's read executor or, without one, on GRDB's queues, without blocking the caller's
    /// thread.
    nonisolated(nonsending) func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard StoreSpan.isTraced else { return try await untracedRead(body) }
        return try await StoreSpan.measure(StoreSpanName.sqliteRead, system: StoreSpanName.sqlite) { try await untracedRead(body) }
    }

    /// ``read(_:)`` without a span.
    private nonisolated(nonsending) func untracedRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if Self.blockingReadsPermitted { return try readHere(body) }
        if let readExecutor {
            // The read queues for a thread behind every endpoint's reads: under overload that wait
            // is bounded like a commit's (a write's use case reads before it writes, and nothing
            // is written yet).
            let target = QueueTimeExemption.target(queueTimeTarget)
            if let target, let behind = readBacklog?(), behind > target {
                // It would queue behind a read that has waited longer than the target already.
                readsRefused.add(1, ordering: .relaxed)
                throw RepositoryFailure.busy(
                    reason: "the read threads are \(Int(behind / .milliseconds(1))) ms behind, over the queue-time target of \(Int(target / .milliseconds(1))) ms; nothing was written"
                )
            }
            let refusedAfter = target.map { ContinuousClock.now + $0 }
            return try await withTaskExecutorPreference(readExecutor) {
                if let target, let refusedAfter, ContinuousClock.now > refusedAfter {
                    self.readsRefused.add(1, ordering: .relaxed)
                    throw RepositoryFailure.busy(
                        reason: "the read waited over the queue-time target of \(Int(target / .milliseconds(1))) ms for a read thread; nothing was written"
                    )
                }
                return try await self.readWithoutHop(body)
            }
        }
        return try await pool.read(body)
    }

    /// ``read(_:)`` on the task's preferred executor: blocking on a marked thread, else on GRDB's
    /// queues. Plain `async`, not `nonisolated(nonsending)`: a caller isolated to an actor would
    /// otherwise keep it on that actor's executor instead of the read executor's threads.
    private func readWithoutHop<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if Self.blockingReadsPermitted { return try readHere(body) }
        return try await pool.read(body)
    }

    /// GRDB's blocking read (a function of its own: an `async` caller would get the `async` one).
    private func readHere<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// Writes a consistent copy of the whole database to `destination` (SQLite's online backup
    /// API; writes go on meanwhile). The file is written next to its destination and renamed into
    /// place, so `destination` never holds a partial copy. Fails if `destination` exists.
    public func backup(to destination: String) async throws {
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: destination) else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: destination])
        }
        let partial = destination + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        try? fileManager.removeItem(atPath: partial)
        let pool = self.pool
        do {
            try await Self.offThePool {
                // A DatabaseQueue in DELETE journal mode leaves a single self-contained file.
                let copy = try DatabaseQueue(path: partial)
                try pool.backup(to: copy)
                try copy.close()
            }
            try fileManager.moveItem(atPath: partial, toPath: destination)
        } catch {
            // A failed backup leaves nothing behind (no half-written copy to mistake for one).
            try? fileManager.removeItem(atPath: partial)
            throw error
        }
    }

    /// A cheap liveness check: one read on a reader connection.
    public func ping() async throws {
        _ = try await read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// Runs `PRAGMA integrity_check`; throws ``StoreError/integrityCheckFailed(_:)`` unless it
    /// answers `ok`.
    public func checkIntegrity() async throws {
        let problems = try await read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        guard problems == ["ok"] else { throw StoreError.integrityCheckFailed(problems) }
    }

    /// Refuses new writes, waits for queued ones, checkpoints the WAL into the database file and
    /// closes every connection.
    public func close() async throws {
        committer.close()
        let pool = self.pool, committer = self.committer
        try await Self.offThePool {
            committer.waitUntilEnded()
            // Runs after every batch already queued on the writer. The checkpoint is a courtesy
            // (a smaller file to copy); committed data is durable in the WAL either way.
            pool.writeWithoutTransaction { db in
                _ = try? db.checkpoint(.truncate)
            }
            try pool.close()
        }
    }

    /// Runs a blocking call on a dispatch thread, so it never occupies Swift's cooperative pool.
    private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result(catching: body)) }
        }
    }
}

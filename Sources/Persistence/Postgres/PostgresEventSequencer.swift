import Domain
import Logging
import PostgresNIO
import Synchronization

/// Numbers the events of a PostgreSQL store, gap-free and in commit order for every key, across
/// every instance of a cluster, and tells each instance's ``EventTail`` how far the log goes.
///
/// A PostgreSQL sequence cannot number the events itself: values are taken in one order and
/// committed in another, so a reader publishing by such a number would skip a value that commits
/// late, for good. So a write inserts its event unnumbered (`seq` NULL), as the last statement of
/// its transaction, and the events are numbered after they commit:
///
/// - **Numbering** is one transaction that locks `event_sequence`'s row (`FOR UPDATE`: numberings
///   on any instance take turns), then gives the unnumbered events it can see the seqs after
///   `last_seq`, in insertion (`id`) order, stores the new `last_seq` and notifies `svc_events`
///   with it. A rolled-back or failed numbering hands out nothing, so seqs have no gaps; an event
///   committed after the numbering's snapshot is left for the next one.
/// - **Per-key order**: the event is inserted after the write's row locks (the user's, the
///   restaurant's, the items'), so of two writes of one key the second inserts — and takes its
///   `id` — only after the first committed: id order, and so seq order, is their commit order.
/// - **Who numbers**: the instance holding the advisory lock ``PostgresSchema/Lock/eventNumbering``
///   on its listening connection (the others try to take it every ``electionInterval``; a
///   leader that dies releases it with its session). It looks for unnumbered events every
///   ``busyInterval`` while events keep coming (at once after one of its own commits, but at most
///   once per ``busyInterval``: one numbering, one fsync, covers every event since the last), and
///   every ``PostgresStore/Configuration/eventIdleInterval`` once none came for a second. Every
///   instance also numbers events that waited unnumbered for more than ``staleAfter`` (a leader
///   that hangs without dying), which the row lock makes safe.
/// - **Following**: each instance LISTENs on `svc_events` on a connection of its own and reads
///   `last_seq` every ``PostgresStore/Configuration/eventPollInterval`` in case a notification
///   was lost (a connection that died); both move its tail forward, and the live stream reads
///   the new events from the log.
final class PostgresEventSequencer: Sendable {
    /// The leader's pace while events keep coming.
    static let busyInterval: Duration = .milliseconds(10)
    /// How often an instance that does not lead tries to take the lead, and sweeps.
    static let electionInterval: Duration = .seconds(1)
    /// How old an unnumbered event may be before any instance numbers it.
    static let staleAfter: Int64 = 1000
    /// Events one numbering transaction numbers at most.
    static let batch = 1000
    /// The channel numbering notifies, with the new `last_seq` as payload.
    static let channel = "svc_events"

    private let wakeUp = WakeSignal()
    private let leading = Atomic<Bool>(false)
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// A sequencer that runs from ``start(for:)``.
    init() {}

    /// Whether this instance numbers the cluster's events now.
    var isLeading: Bool { leading.load(ordering: .relaxed) }

    /// Starts numbering and following for `store` (held weakly: a store dropped without being
    /// closed stops its sequencer).
    func start(for store: PostgresStore) {
        let wakeUp = self.wakeUp
        let idleInterval = store.configuration.eventIdleInterval, pollInterval = store.configuration.eventPollInterval
        let numbering = Task { [weak store, self] in
            var lastFound = ContinuousClock.now - .seconds(60)
            var lastSweep = ContinuousClock.now
            while !Task.isCancelled {
                let busy = ContinuousClock.now - lastFound < .seconds(1)
                let started = ContinuousClock.now
                let woken = await wakeUp.wait(upTo: isLeading ? (busy ? Self.busyInterval : idleInterval) : Self.electionInterval)
                guard let store else { return }
                if isLeading {
                    // At most one numbering per busy interval, however often commits wake it.
                    if woken, ContinuousClock.now - started < Self.busyInterval {
                        try? await Task.sleep(until: started + Self.busyInterval)
                    }
                    if await Self.numberAll(store, onlyOlderThan: nil, checkFirst: !woken) { lastFound = ContinuousClock.now }
                } else if ContinuousClock.now - lastSweep >= Self.electionInterval {
                    lastSweep = ContinuousClock.now
                    _ = await Self.numberAll(store, onlyOlderThan: store.clock.now().adding(milliseconds: -Self.staleAfter), checkFirst: true)
                }
            }
        }
        let following = Task { [weak store, self] in
            while !Task.isCancelled {
                guard let store else { return }
                await follow(store)
            }
        }
        let polling = Task { [weak store] in
            while !Task.isCancelled {
                guard let store else { return }
                if let last = try? await store.read({ connection, logger in try await Self.readLastSeq(connection, logger) }) {
                    store.tail.advanced(to: last)
                }
                try? await Task.sleep(for: pollInterval)
            }
        }
        tasks.withLock { $0 += [numbering, following, polling] }
    }

    /// An event was committed by this instance: number it soon.
    func wake() {
        wakeUp.signal()
    }

    /// Stops numbering and following.
    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    /// Stops numbering and following, and returns once they have stopped.
    func stopAndWait() async {
        let running = tasks.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Numbers batches until none is left; whether it found any. With `checkFirst`, looks first
    /// whether anything waits (older than `onlyOlderThan`, when given), without taking the
    /// sequence's lock.
    private static func numberAll(_ store: PostgresStore, onlyOlderThan: Timestamp?, checkFirst: Bool) async -> Bool {
        do {
            if checkFirst {
                let before = onlyOlderThan?.millisecondsSinceEpoch ?? Int64.max
                let waiting = try await store.read { connection, logger in
                    try await connection.row(AnyUnnumbered.query(before: before), logger) { _ in true } ?? false
                }
                guard waiting else { return false }
            }
            var found = false
            while !Task.isCancelled {
                let (last, numbered) = try await store.numberEvents(batch: batch)
                store.tail.advanced(to: last)
                found = found || numbered > 0
                guard numbered == batch else { return found }
            }
            return found
        } catch {
            // The database is away or busy: the next round tries again (nothing was numbered).
            store.logger.debug("numbering events failed; retrying", metadata: ["error": "\(PostgresFailure.summary(error))"])
            return false
        }
    }

    /// LISTENs on ``channel`` on a connection of its own until that connection fails or the
    /// task is cancelled, moving the tail with every notification; on the same connection, takes
    /// the numbering lead when nobody has it (checked every ``electionInterval``).
    private func follow(_ store: PostgresStore) async {
        do {
            try await store.listen(on: Self.channel) { connection, logger, notifications in
                defer { self.leading.store(false, ordering: .relaxed) }
                // Listening now: what was numbered before is read once, nothing after is missed.
                store.tail.advanced(to: try await Self.readLastSeq(connection, logger))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await notification in notifications {
                            if let last = Int64(notification.payload) { store.tail.advanced(to: last) }
                        }
                    }
                    group.addTask {
                        // Once taken, the lead lasts as long as this connection's session.
                        while !Task.isCancelled {
                            if !self.isLeading {
                                let taken = try await connection.row(
                                    "SELECT pg_try_advisory_lock(\(PostgresSchema.Lock.eventNumbering))", logger
                                ) { try $0.decode(Bool.self) } ?? false
                                if taken {
                                    self.leading.store(true, ordering: .relaxed)
                                    self.wakeUp.signal()
                                    store.logger.info("this instance numbers the cluster's events now")
                                }
                            }
                            try await Task.sleep(for: Self.electionInterval)
                        }
                    }
                    // Either ends only with the connection (or the task): then both stop.
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            store.logger.debug("following event numbers failed; listening again", metadata: ["error": "\(PostgresFailure.summary(error))"])
        }
        leading.store(false, ordering: .relaxed)
        try? await Task.sleep(for: .seconds(1))
    }

    /// The highest seq handed out.
    static func readLastSeq(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        try await connection.row("SELECT last_seq FROM event_sequence", logger) { try $0.decode(Int64.self) } ?? 0
    }
}

extension PostgresStore {
    /// One numbering transaction (see ``PostgresEventSequencer``): numbers up to `batch` events;
    /// returns the highest seq afterwards and how many it numbered.
    func numberEvents(batch: Int) async throws -> (lastSeq: Int64, numbered: Int) {
        try await bounded { client, logger, progress in
            try await client.withConnection { connection in
                let held = self.holding(connection, progress)
                defer { self.release(held) }
                return try await connection.withTransaction(logger: logger) { connection in
                    let last = try await connection.row("SELECT last_seq FROM event_sequence FOR UPDATE", logger) { try $0.decode(Int64.self) } ?? 0
                    let numbered = try await connection.rows(NumberEvents.self, logger) { bindings in
                        bindings.append(last)
                        bindings.append(Int64(batch))
                    }.count
                    guard numbered > 0 else { return (last, 0) }
                    let now = last + Int64(numbered)
                    try await connection.run(
                        "WITH bumped AS (UPDATE event_sequence SET last_seq = \(now) RETURNING last_seq) SELECT pg_notify(\(PostgresEventSequencer.channel), last_seq::text) FROM bumped",
                        logger
                    )
                    return (now, numbered)
                }
            }
        }
    }

    /// Runs `consume` with the notifications of `channel`, on a connection of its own, outside
    /// the pool (LISTEN is per session, and a pooled connection held for the life of the process
    /// would be one fewer for requests), closed when `consume` ends.
    func listen(
        on channel: String, _ consume: @escaping @Sendable (PostgresConnection, Logger, PostgresNotificationSequence) async throws -> Void
    ) async throws {
        let logger = self.logger
        let connection = try await PostgresConnection.connect(
            on: configuration.eventLoop, configuration: Self.connectionConfiguration(configuration, server: servers.server), id: 0, logger: backgroundLogger
        )
        do {
            try await connection.listen(on: channel) { notifications in
                try await consume(connection, logger, notifications)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }
}

/// The numbering of ``PostgresEventSequencer``: the unnumbered events this statement sees, in
/// insertion order, get the seqs after `$1`, at most `$2` of them.
///
/// Each row is updated where `next` found it, by its `ctid`: nothing else changes an unnumbered
/// row (numberers take turns under `event_sequence`'s row lock, pruning deletes numbered ones).
/// Joined by `id` instead, the plan PostgreSQL made from statistics taken while few events
/// waited compared every waiting event with every one of the batch: with 30,000 waiting, one
/// numbering took 35 s (5 ms this way), so a backlog grew the longer it was.
enum NumberEvents: PreparedSQL {
    static let name = "svc_number_events"
    static let sql = """
        WITH next AS (
            SELECT ctid, row_number() OVER (ORDER BY id) AS n FROM events WHERE seq IS NULL ORDER BY id LIMIT $2
        )
        UPDATE events SET seq = $1 + next.n FROM next WHERE events.ctid = next.ctid AND events.seq IS NULL RETURNING events.seq
        """
}

/// Whether an event written before `before` waits unnumbered: the first such by id, through the
/// index of unnumbered events. (As `EXISTS`, PostgreSQL read the whole table when its statistics
/// were taken during a backlog and said most events wait: 38 ms at 120,000 events.)
enum AnyUnnumbered {
    static let sql = "SELECT id FROM events WHERE seq IS NULL AND at < $1 ORDER BY id LIMIT 1"

    /// The statement for events written before `before` (ms since the epoch).
    static func query(before: Int64) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(before)
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}

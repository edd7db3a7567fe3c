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
/// - **Numbering** is one transaction that locks `event_sequence`'s row (`FOR UPDATE`: numbering
///   transactions on any instance take turns), then gives the unnumbered events it can see the
///   seqs after `last_seq`, in insertion (`id`) order, stores the new `last_seq` and notifies
///   `svc_events` with it. A rolled-back or failed numbering hands out nothing, so seqs have no
///   gaps; an event committed after the numbering's snapshot is left for the next one.
/// - **Per-key order**: the event is inserted after the write's row locks (the user's, the
///   restaurant's, the items'), so of two writes of one key the second inserts — and takes its
///   `id` — only after the first committed: id order, and so seq order, is their commit order.
/// - **Who numbers**: every instance, after each of its own commits that appended an event
///   (coalesced: one numbering runs at a time per instance, and one more after it if more events
///   came meanwhile), and every ``sweepInterval`` when something waits unnumbered (the events of
///   an instance killed between its commit and its numbering).
/// - **Following**: each instance LISTENs on `svc_events` and reads `last_seq` every
///   ``pollInterval`` in case a notification was lost (a connection that died), and moves its
///   tail forward; the live stream then reads the new events from the log.
final class PostgresEventSequencer: Sendable {
    /// How often an idle instance looks for events nobody numbered.
    static let sweepInterval: Duration = .milliseconds(250)
    /// How often an instance reads `last_seq` whatever the notifications said: a LISTEN
    /// connection that died silently still leaves every event published within a second.
    static let pollInterval: Duration = .milliseconds(500)
    /// Events one numbering transaction numbers at most.
    static let batch = 1000
    /// The channel numbering notifies, with the new `last_seq` as payload.
    static let channel = "svc_events"

    private let wakeUp = WakeSignal()
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// A sequencer that runs from ``start(for:)``.
    init() {}

    /// Starts numbering and following for `store` (held weakly: a store dropped without being
    /// closed stops its sequencer).
    func start(for store: PostgresStore) {
        let wakeUp = self.wakeUp
        let numbering = Task { [weak store] in
            while !Task.isCancelled {
                let woken = await wakeUp.wait(upTo: Self.sweepInterval)
                guard let store else { return }
                await Self.numberAll(store, checkFirst: !woken)
            }
        }
        let following = Task { [weak store] in
            while !Task.isCancelled {
                guard let store else { return }
                await Self.follow(store)
            }
        }
        let polling = Task { [weak store] in
            while !Task.isCancelled {
                guard let store else { return }
                if let last = try? await store.read({ connection, logger in try await Self.readLastSeq(connection, logger) }) {
                    store.tail.advanced(to: last)
                }
                try? await Task.sleep(for: Self.pollInterval)
            }
        }
        tasks.withLock { $0 += [numbering, following, polling] }
    }

    /// An event was committed by this instance: number it now.
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

    /// Numbers batches until none is left. With `checkFirst` (a sweep), looks first whether
    /// anything waits, without taking the sequence's lock.
    private static func numberAll(_ store: PostgresStore, checkFirst: Bool) async {
        do {
            if checkFirst {
                let waiting = try await store.read { connection, logger in
                    try await connection.row("SELECT EXISTS (SELECT 1 FROM events WHERE seq IS NULL)", logger) { try $0.decode(Bool.self) } ?? false
                }
                guard waiting else { return }
            }
            while !Task.isCancelled {
                let (last, numbered) = try await store.numberEvents(batch: batch)
                store.tail.advanced(to: last)
                guard numbered == batch else { return }
            }
        } catch {
            // The database is away or busy: the next wake or sweep tries again (nothing was numbered).
            store.logger.debug("numbering events failed; retrying", metadata: ["error": "\(PostgresFailure.summary(error))"])
        }
    }

    /// LISTENs on ``channel`` on a connection of its own until that connection fails or the
    /// task is cancelled, moving the tail with every notification.
    private static func follow(_ store: PostgresStore) async {
        do {
            try await store.listen(on: channel) { connection, logger, notifications in
                // Listening now: what was numbered before is read once, nothing after is missed.
                store.tail.advanced(to: try await readLastSeq(connection, logger))
                for try await notification in notifications {
                    if let last = Int64(notification.payload) { store.tail.advanced(to: last) }
                }
            }
        } catch {
            store.logger.debug("following event numbers failed; listening again", metadata: ["error": "\(PostgresFailure.summary(error))"])
        }
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
                    try await connection.run("UPDATE event_sequence SET last_seq = \(now)", logger)
                    try await connection.run("SELECT pg_notify(\(PostgresEventSequencer.channel), \(String(now)))", logger)
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
            on: Self.eventLoops.any(), configuration: Self.listenerConfiguration(configuration), id: 0, logger: backgroundLogger
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
private enum NumberEvents: PreparedSQL {
    static let name = "svc_number_events"
    static let sql = """
        WITH next AS (
            SELECT id, row_number() OVER (ORDER BY id) AS n FROM events WHERE seq IS NULL ORDER BY id LIMIT $2
        )
        UPDATE events SET seq = $1 + next.n FROM next WHERE events.id = next.id RETURNING events.seq
        """
}

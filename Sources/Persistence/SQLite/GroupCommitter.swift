import Domain
import Foundation
import GRDB
import Metrics
import Synchronization

/// Runs writes in shared transactions so that one commit (one fsync of the WAL) makes many
/// writes durable at once.
///
/// Each write runs in its own savepoint inside the current batch's transaction, so a write that
/// throws rolls back alone. Callers are resumed only after the batch's `COMMIT` has returned:
/// an answer never precedes durability. While one batch commits, new writes queue up and become
/// the next batch, so the batch size follows the load without any timer: one write alone is
/// committed at once, 64 concurrent writes share a handful of commits.
///
/// Batches run on a thread of the committer's own, `sqlite-commit`, for the life of the
/// committer (never Swift's cooperative pool). It enters GRDB's writer queue synchronously, which
/// serialises the batches with every other write to the database and runs them right on that
/// thread: a committer adds exactly one thread to the process, where handing each batch to the
/// queue asynchronously borrowed one of libdispatch's workers, which come and go with the load.
///
/// A write that has waited longer than the queue-time target when its batch starts is not run:
/// it fails with ``RepositoryFailure/busy(reason:)`` (nothing written), so that under overload
/// the writes still accepted wait at most about the target plus one commit, not for every write
/// queued ahead of them.
///
/// Every committed batch is also reported to swift-metrics: its size to the aggregating
/// `Recorder` "svc_store_commit_batch_size" and the time from `BEGIN` to the end of `COMMIT`
/// (the fsync included) to the `Timer` "svc_store_commit_duration_seconds".
final class GroupCommitter: Sendable {
    private let writer: DatabasePool
    private let maximumBatch: Int
    private let queueTimeTarget: Duration?
    private let state = Mutex(State())
    private let batchSizes: Recorder
    private let commitDurations: Timer
    /// One signal per flush scheduled, and one at ``close()`` and at deinit.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled by the commit thread when it ends after ``close()``.
    private let ended = DispatchSemaphore(value: 0)
    /// Whether the commit thread still runs: it ends after ``close()``, or once the committer is
    /// gone (shared with the thread, which outlives a dropped committer by a moment).
    let commitThread = CommitThreadLife()

    private struct State {
        var pending: [PendingWrite] = []
        var flushScheduled = false
        var closed = false
        var statistics = GroupCommitStatistics()
    }

    /// How to answer a write once its batch's commit outcome is known (and, when committed, when
    /// the batch's transaction ran).
    private typealias Answer = @Sendable ((any Error)?, CommitTiming?) -> Void

    /// A queued write. `perform` runs it and returns its answer: with `alone`, inside its own
    /// savepoint, so a failure rolls back only this write and becomes its answer (and is
    /// returned too); without, a failure is thrown. `fail` answers a write that never ran.
    private struct PendingWrite: Sendable {
        /// When the write is refused unrun if its batch has not started (`nil`: never, e.g.
        /// for seeding, see ``QueueTimeExemption``).
        let refusedAfter: ContinuousClock.Instant?
        let perform: @Sendable (Database, _ alone: Bool) throws -> (answer: Answer, failure: (any Error)?)
        let fail: @Sendable (any Error) -> Void
    }

    /// A committer of `writer`'s writes, at most `maximumBatch` in one transaction, refusing
    /// writes that waited longer than `queueTimeTarget` (`nil`: none are refused).
    init(writer: DatabasePool, maximumBatch: Int = 1024, queueTimeTarget: Duration? = nil, metrics: any MetricsFactory) {
        self.writer = writer
        self.maximumBatch = maximumBatch
        self.queueTimeTarget = queueTimeTarget
        batchSizes = Recorder(label: "svc_store_commit_batch_size", dimensions: [], aggregate: true, factory: metrics)
        commitDurations = Timer(label: "svc_store_commit_duration_seconds", dimensions: [], factory: metrics)
        // Weak: a committer dropped without close() (a test's store) ends its thread at deinit.
        let thread = Thread { [weak self, wake, commitThread] in
            defer { commitThread.running.store(false, ordering: .releasing) }
            // Foundation's Thread.name does not reach the kernel on Linux, and a new thread
            // inherits its creator's name otherwise; `top -H`, /proc and debuggers show this one.
            if let comm = fopen("/proc/thread-self/comm", "w") {
                fputs("sqlite-commit", comm)
                fclose(comm)
            }
            while true {
                wake.wait()
                guard let self, self.commitQueued() else { return }
            }
        }
        thread.start()
    }

    deinit {
        wake.signal()
    }

    /// Runs `body` in the next batch and returns its result once that batch is committed.
    /// Throws what `body` threw (nothing of it was written), or the commit's error (nothing of
    /// the whole batch was written).
    ///
    /// `committed`, if given, is called with the result right after the commit and before the
    /// caller resumes, on the writer's queue: the writes' `committed` calls therefore run one at
    /// a time in commit order, which the callers' own resumptions do not (e.g. to keep a copy of
    /// committed state that later writes must not be overtaken by).
    func write<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, committed: (@Sendable (T) -> Void)? = nil
    ) async throws -> T {
        try await timedWrite(body, committed: committed).value
    }

    /// ``write(_:committed:)``, and when its batch's transaction ran (for the store's spans).
    func timedWrite<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, committed: (@Sendable (T) -> Void)? = nil
    ) async throws -> (value: T, timing: CommitTiming) {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(value: T, timing: CommitTiming), any Error>) in
            let write = PendingWrite(
                refusedAfter: QueueTimeExemption.target(queueTimeTarget).map { ContinuousClock.now + $0 },
                perform: { db, alone in
                    let result: Result<T, any Error>
                    if alone {
                        result = Result {
                            var value: T?
                            try db.inSavepoint {
                                value = try body(db)
                                return .commit
                            }
                            return value!
                        }
                    } else {
                        result = .success(try body(db))
                    }
                    let answer: Answer = { commitError, timing in
                        if let commitError {
                            continuation.resume(throwing: commitError)
                        } else {
                            if let committed, case .success(let value) = result { committed(value) }
                            continuation.resume(with: result.map { ($0, timing!) })
                        }
                    }
                    if case .failure(let failure) = result { return (answer, failure) }
                    return (answer, nil)
                },
                fail: { continuation.resume(throwing: $0) }
            )
            let scheduleFlush: Bool? = state.withLock { state in
                guard !state.closed else { return nil }
                state.pending.append(write)
                guard !state.flushScheduled else { return false }
                state.flushScheduled = true
                return true
            }
            switch scheduleFlush {
            case nil: write.fail(StoreError.closed)
            case true?: wake.signal()
            case false?: break
            }
        }
    }

    /// Commits so far.
    var statistics: GroupCommitStatistics {
        state.withLock { $0.statistics }
    }

    /// Refuses new writes from now on; queued ones still complete. Returns at once; see
    /// ``waitUntilEnded()``.
    func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    /// Blocks the calling thread until, after ``close()``, every queued write is answered and the
    /// commit thread has ended. Never call it on Swift's cooperative pool.
    func waitUntilEnded() {
        ended.wait()
        // For any later caller.
        ended.signal()
    }

    /// The commit thread's work for one signal: commits what is queued, in GRDB's writer queue.
    /// Returns false when the committer is closed and nothing is left, after signalling `ended`.
    private func commitQueued() -> Bool {
        // flush answers every write it takes, its commit's failures included (a database closed
        // under the committer fails each statement), so none is left waiting.
        writer.writeWithoutTransaction { db in self.flush(db) }
        let finished = state.withLock { $0.closed && $0.pending.isEmpty }
        if finished { ended.signal() }
        return !finished
    }

    /// Commits batches until the queue is empty.
    private func flush(_ db: Database) {
        while true {
            let batch: [PendingWrite] = state.withLock { state in
                if state.pending.isEmpty {
                    state.flushScheduled = false
                    return []
                }
                let count = min(state.pending.count, maximumBatch)
                let batch = Array(state.pending.prefix(count))
                state.pending.removeFirst(count)
                return batch
            }
            if batch.isEmpty { return }
            let runnable = refusingOverdue(batch)
            if !runnable.isEmpty { commit(runnable, db) }
        }
    }

    /// The writes of `batch` that have not waited longer than the queue-time target; the others
    /// are answered busy.
    private func refusingOverdue(_ batch: [PendingWrite]) -> [PendingWrite] {
        guard let queueTimeTarget else { return batch }
        let now = ContinuousClock.now
        let overdue = batch.filter { $0.refusedAfter.map { now > $0 } ?? false }
        guard !overdue.isEmpty else { return batch }
        state.withLock { $0.statistics.refused += overdue.count }
        let reason = "the write waited over the queue-time target of \(Int(queueTimeTarget / .milliseconds(1))) ms for a commit; nothing was written"
        for write in overdue { write.fail(RepositoryFailure.busy(reason: reason)) }
        return batch.filter { $0.refusedAfter.map { now <= $0 } ?? true }
    }

    /// Commits `batch` in one transaction. The fast path runs the writes back to back; if any
    /// of them (or the commit) fails, the transaction is rolled back and the batch replayed with
    /// a savepoint per write, so only the failing writes fail. Writes are pure functions of the
    /// database, so replaying them is safe.
    private func commit(_ batch: [PendingWrite], _ db: Database) {
        let started = ContinuousClock.now
        var answers: [Answer] = []
        answers.reserveCapacity(batch.count)
        do {
            try db.inTransaction(.immediate) {
                for write in batch { answers.append(try write.perform(db, false).answer) }
                return .commit
            }
        } catch {
            answers.removeAll(keepingCapacity: true)
            do {
                try db.inTransaction(.immediate) {
                    for write in batch {
                        let (answer, failure) = try write.perform(db, true)
                        answers.append(answer)
                        // Some errors (disk full, I/O) make SQLite roll the whole transaction
                        // back; the writes after it would then run outside any transaction. The
                        // batch fails with that error, so each caller learns why (storage full).
                        guard db.isInsideTransaction else { throw failure ?? StoreError.transactionLost }
                    }
                    return .commit
                }
            } catch {
                for answer in answers { answer(error, nil) }
                for write in batch.dropFirst(answers.count) { write.fail(error) }
                return
            }
        }
        state.withLock { state in
            state.statistics.commits += 1
            state.statistics.writes += batch.count
            state.statistics.largestBatch = max(state.statistics.largestBatch, batch.count)
        }
        let ended = ContinuousClock.now
        commitDurations.record(duration: ended - started)
        batchSizes.record(batch.count)
        let timing = CommitTiming(started: started, ended: ended, batchSize: batch.count)
        for answer in answers { answer(nil, timing) }
    }
}

/// When a ``GroupCommitter`` batch's transaction ran, from `BEGIN` to the end of `COMMIT` (its
/// fsync included), and how many writes it held.
struct CommitTiming: Sendable {
    let started: ContinuousClock.Instant
    let ended: ContinuousClock.Instant
    let batchSize: Int
}

/// Whether a ``GroupCommitter``'s thread still runs.
final class CommitThreadLife: Sendable {
    /// True from the committer's start until its thread has ended.
    let running = Atomic<Bool>(true)

    /// Whether the thread still runs.
    var isRunning: Bool { running.load(ordering: .acquiring) }
}

/// How well writes were grouped: `writes / commits` is the mean batch size.
public struct GroupCommitStatistics: Sendable, Hashable {
    /// Transactions committed (each one fsync of the WAL).
    public var commits = 0
    /// Writes made durable by those commits (including writes that rolled back alone).
    public var writes = 0
    /// The most writes one commit carried.
    public var largestBatch = 0
    /// Writes refused unrun because they waited longer than the queue-time target.
    public var refused = 0

    /// No commits yet.
    public init() {}
}

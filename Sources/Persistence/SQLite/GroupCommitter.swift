import GRDB
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
/// Batches run on GRDB's writer queue (a dispatch queue, never Swift's cooperative pool), which
/// also serialises them with every other write to the database.
final class GroupCommitter: Sendable {
    private let writer: DatabasePool
    private let maximumBatch: Int
    private let state = Mutex(State())

    private struct State {
        var pending: [PendingWrite] = []
        var flushScheduled = false
        var closed = false
        var statistics = GroupCommitStatistics()
    }

    /// A queued write: `perform` runs it in its savepoint and returns how to answer once the
    /// commit's outcome is known; `fail` answers it when it never ran.
    private struct PendingWrite: Sendable {
        let perform: @Sendable (Database) -> @Sendable ((any Error)?) -> Void
        let fail: @Sendable (any Error) -> Void
    }

    init(writer: DatabasePool, maximumBatch: Int = 1024) {
        self.writer = writer
        self.maximumBatch = maximumBatch
    }

    /// Runs `body` in the next batch and returns its result once that batch is committed.
    /// Throws what `body` threw (nothing of it was written), or the commit's error (nothing of
    /// the whole batch was written).
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let write = PendingWrite(
                perform: { db in
                    let result = Result { () throws -> T in
                        var value: T?
                        try db.inSavepoint {
                            value = try body(db)
                            return .commit
                        }
                        return value!
                    }
                    return { commitError in
                        if let commitError {
                            continuation.resume(throwing: commitError)
                        } else {
                            continuation.resume(with: result)
                        }
                    }
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
            case true?: writer.asyncWriteWithoutTransaction { db in self.flush(db) }
            case false?: break
            }
        }
    }

    /// Commits so far.
    var statistics: GroupCommitStatistics {
        state.withLock { $0.statistics }
    }

    /// Refuses new writes from now on; queued ones still complete.
    func close() {
        state.withLock { $0.closed = true }
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
            commit(batch, db)
        }
    }

    private func commit(_ batch: [PendingWrite], _ db: Database) {
        var answers: [@Sendable ((any Error)?) -> Void] = []
        answers.reserveCapacity(batch.count)
        do {
            try db.inTransaction(.immediate) {
                for write in batch {
                    answers.append(write.perform(db))
                    // Some errors (disk full, I/O) make SQLite roll the whole transaction back;
                    // the writes after it would then run outside any transaction.
                    guard db.isInsideTransaction else { throw StoreError.transactionLost }
                }
                return .commit
            }
        } catch {
            for answer in answers { answer(error) }
            for write in batch.dropFirst(answers.count) { write.fail(error) }
            return
        }
        state.withLock { state in
            state.statistics.commits += 1
            state.statistics.writes += batch.count
            state.statistics.largestBatch = max(state.statistics.largestBatch, batch.count)
        }
        for answer in answers { answer(nil) }
    }
}

/// How well writes were grouped: `writes / commits` is the mean batch size.
public struct GroupCommitStatistics: Sendable, Hashable {
    /// Transactions committed (each one fsync of the WAL).
    public var commits = 0
    /// Writes made durable by those commits (including writes that rolled back alone).
    public var writes = 0
    /// The most writes one commit carried.
    public var largestBatch = 0
}

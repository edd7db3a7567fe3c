import Synchronization

/// Waits for a database operation in two stages: at most `connectLimit` until it has a
/// connection (``Progress/connected()``), and at most `runLimit` in all. The operation runs in a
/// task of its own; when a limit passes (``DeadlineWatcher`` notices within 20 ms), it is
/// cancelled and left to finish by itself while the caller gets `onTimeout(stage)`'s error at once.
///
/// The first limit is the one that matters when the database is away: a pool that cannot
/// connect keeps requests waiting for a connection, and they are answered within it. Once
/// connected, the server's own `lock_timeout` and `statement_timeout` end slow statements with
/// an error; the second limit only guards against a connection that silently stopped answering.
///
/// A silent network (a partition: nothing arrives, nothing is refused) would hold an operation
/// that has its connection until the run limit. With `stall`, the operation is also given up as
/// `.running` once it has run `stall.after` while `stall.isStalled()` says the database is not
/// answering anyone, twice in a row ``Stall/recheck`` apart (checked every ``Stall/recheck`` from
/// then on): a process that got no CPU for a while has replies waiting unread, and the second look
/// gives its event loop that long to read them.
///
/// The operation may also report that its connection was lost (``Progress/connectionLost()``):
/// the caller then gets `onTimeout(.lost)` at once, however long the limits still run. A query
/// on a connection that closed while it was being sent may never complete (postgres-nio drops
/// the failed write), so the loss must end the wait rather than the query's own error.
///
/// A structured task group would not do: it waits for its children, and a query already sent to
/// PostgreSQL is not interrupted by task cancellation (only waiting for a connection is).
enum OperationDeadline {
    /// How far an operation got when its time ran out.
    enum Stage: Sendable {
        /// It was still waiting for a connection: nothing was sent.
        case connecting
        /// It had a connection and was running.
        case running
        /// Its connection closed while it was running.
        case lost
    }

    /// When to give up on an operation the database stopped answering, before its run limit.
    struct Stall: Sendable {
        /// How long the operation runs before the check applies.
        let after: Duration
        /// Whether the database answers nobody now.
        let isStalled: @Sendable () -> Bool

        /// How often the check runs again once it applies.
        static let recheck: Duration = .milliseconds(100)
    }

    /// What the operation tells the deadline: that it has its connection, or lost it.
    struct Progress: Sendable {
        fileprivate let connectedFlag: @Sendable () -> Void
        fileprivate let lostFlag: @Sendable () -> Void

        /// The operation holds a connection now; from here the run limit applies.
        func connected() { connectedFlag() }

        /// The operation's connection closed: the caller is answered now (`onTimeout(.lost)`)
        /// unless the operation finished first.
        func connectionLost() { lostFlag() }
    }

    static func run<T: Sendable>(
        connectLimit: Duration, runLimit: Duration, stall: Stall? = nil, onTimeout: @escaping @Sendable (Stage) -> any Error,
        _ operation: @escaping @Sendable (Progress) async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let race = Race(continuation)
            let progress = Progress(connectedFlag: { race.markConnected() }, lostFlag: { race.abandon(with: onTimeout(.lost)) })
            let started = ContinuousClock.now
            let finishBy = started.advanced(by: runLimit)
            let stallBy = stall.map { started.advanced(by: $0.after) }
            let suspected = Atomic<Bool>(false)
            // One watcher thread checks every operation's limits: a timer task per operation
            // (a task, a sleep and a cancellation each time) cost ~30 µs of CPU per request.
            let ticket = DeadlineWatcher.shared.watch(due: min(started.advanced(by: connectLimit), stallBy ?? finishBy)) { now in
                if !race.isConnected {
                    guard now >= started.advanced(by: connectLimit) else { return started.advanced(by: connectLimit) }
                    race.abandon(with: onTimeout(.connecting))
                    return nil
                }
                if let stall, let stallBy, now < finishBy {
                    guard now >= stallBy else { return stallBy }
                    guard stall.isStalled() else {
                        suspected.store(false, ordering: .relaxed)
                        return min(now.advanced(by: Stall.recheck), finishBy)
                    }
                    guard suspected.exchange(true, ordering: .relaxed) else { return min(now.advanced(by: Stall.recheck), finishBy) }
                    race.abandon(with: onTimeout(.running))
                    return nil
                }
                guard now >= finishBy else { return finishBy }
                race.abandon(with: onTimeout(.running))
                return nil
            }
            let work = Task {
                do {
                    race.finish(.success(try await operation(progress)))
                } catch {
                    race.finish(.failure(error))
                }
                DeadlineWatcher.shared.unwatch(ticket)
            }
            race.start(work: work)
        }
    }

    /// The continuation both tasks race to resume; the first one wins, the loser's outcome is
    /// dropped.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var work: Task<Void, Never>?
            var connected = false
            var abandoned = false
        }

        private let state: Mutex<State>

        init(_ continuation: CheckedContinuation<T, any Error>) {
            state = Mutex(State(continuation: continuation))
        }

        var isConnected: Bool { state.withLock { $0.connected } }

        func markConnected() {
            state.withLock { $0.connected = true }
        }

        /// Remembers the work, so that the caller giving up on it can cancel it; if the caller
        /// already gave up, cancels it at once.
        func start(work: Task<Void, Never>) {
            let abandoned = state.withLock { state in
                state.work = work
                return state.abandoned
            }
            if abandoned { work.cancel() }
        }

        /// Answers the caller with `error` unless the operation finished first, and then cancels
        /// the operation, which is left to finish by itself.
        func abandon(with error: any Error) {
            guard finish(.failure(error)) else { return }
            let work = state.withLock { state in
                state.abandoned = true
                return state.work
            }
            work?.cancel()
        }

        /// Resumes the caller unless the other side did; returns whether this call did.
        @discardableResult
        func finish(_ result: Result<T, any Error>) -> Bool {
            let taken = state.withLock { state -> CheckedContinuation<T, any Error>? in
                defer { state.continuation = nil }
                return state.continuation
            }
            guard let taken else { return false }
            taken.resume(with: result)
            return true
        }
    }
}

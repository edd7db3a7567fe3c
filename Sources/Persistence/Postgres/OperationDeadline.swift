import Foundation
import Synchronization

/// Waits for a database operation in two stages: at most `connectLimit` until it has a
/// connection (``Progress/connected()``), and at most `runLimit` in all. The operation runs in a
/// task of its own; when a limit passes, it is cancelled and left to finish by itself while the
/// caller gets `onTimeout(stage)`'s error at once.
///
/// The first limit is the one that matters when the database is away: a pool that cannot
/// connect keeps requests waiting for a connection, and they are answered within it. Once
/// connected, the server's own `lock_timeout` and `statement_timeout` end slow statements with
/// an error; the second limit only guards against a connection that silently stopped answering.
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
    }

    /// What the operation tells the deadline: that it has its connection.
    struct Progress: Sendable {
        fileprivate let connectedFlag: @Sendable () -> Void

        /// The operation holds a connection now; from here the run limit applies.
        func connected() { connectedFlag() }
    }

    static func run<T: Sendable>(
        connectLimit: Duration, runLimit: Duration, onTimeout: @escaping @Sendable (Stage) -> any Error,
        _ operation: @escaping @Sendable (Progress) async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let race = Race(continuation)
            let progress = Progress { race.markConnected() }
            let now = ContinuousClock.now
            // One watcher thread checks every operation's limits, instead of a timer task per
            // operation (a task, a dispatch timer and a cancellation each time).
            let ticket = DeadlineWatcher.shared.watch(
                connectBy: now.advanced(by: connectLimit), finishBy: now.advanced(by: runLimit),
                isConnected: { race.isConnected },
                expire: { stage in
                    if race.finish(.failure(onTimeout(stage))) { race.cancelWork() }
                }
            )
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
        }

        private let state: Mutex<State>

        init(_ continuation: CheckedContinuation<T, any Error>) {
            state = Mutex(State(continuation: continuation))
        }

        var isConnected: Bool { state.withLock { $0.connected } }

        func markConnected() {
            state.withLock { $0.connected = true }
        }

        /// Remembers the work so that a deadline can cancel it.
        func start(work: Task<Void, Never>) {
            state.withLock { $0.work = work }
        }

        /// Cancels the work (its time ran out).
        func cancelWork() {
            state.withLock { $0.work }?.cancel()
        }

        /// Resumes the caller unless the other side did; returns whether this call did.
        @discardableResult
        func finish(_ result: Result<T, any Error>) -> Bool {
            let taken = state.withLock { state -> CheckedContinuation<T, any Error>? in
                guard let continuation = state.continuation else { return nil }
                state.continuation = nil
                return continuation
            }
            guard let continuation = taken else { return false }
            continuation.resume(with: result)
            return true
        }
    }
}

/// Checks the limits of every running operation from one thread, every 25 ms.
final class DeadlineWatcher: Sendable {
    static let shared = DeadlineWatcher()

    private struct Entry {
        let connectBy: ContinuousClock.Instant
        let finishBy: ContinuousClock.Instant
        let isConnected: @Sendable () -> Bool
        let expire: @Sendable (OperationDeadline.Stage) -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var next = 0
        var started = false
    }

    private let state = Mutex(State())

    /// Watches an operation; returns its ticket for ``unwatch(_:)``.
    func watch(
        connectBy: ContinuousClock.Instant, finishBy: ContinuousClock.Instant,
        isConnected: @escaping @Sendable () -> Bool, expire: @escaping @Sendable (OperationDeadline.Stage) -> Void
    ) -> Int {
        let (ticket, start) = state.withLock { state in
            state.next += 1
            state.entries[state.next] = Entry(connectBy: connectBy, finishBy: finishBy, isConnected: isConnected, expire: expire)
            defer { state.started = true }
            return (state.next, !state.started)
        }
        if start {
            let thread = Thread { [self] in loop() }
            thread.name = "pg-deadlines"
            thread.start()
        }
        return ticket
    }

    /// Stops watching (the operation ended).
    func unwatch(_ ticket: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: ticket) }
    }

    private func loop() {
        while true {
            usleep(25_000)
            let now = ContinuousClock.now
            let candidates = state.withLock { state in
                state.entries.filter { $0.value.connectBy <= now || $0.value.finishBy <= now }
            }
            for (ticket, entry) in candidates {
                let stage: OperationDeadline.Stage
                if entry.finishBy <= now {
                    stage = .running
                } else if !entry.isConnected() {
                    stage = .connecting
                } else {
                    continue
                }
                unwatch(ticket)
                entry.expire(stage)
            }
        }
    }
}

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
            let work = Task {
                do {
                    race.finish(.success(try await operation(progress)))
                } catch {
                    race.finish(.failure(error))
                }
            }
            race.start(work: work, timer: Task {
                try? await Task.sleep(for: connectLimit)
                guard !Task.isCancelled else { return }
                if !race.isConnected {
                    if race.finish(.failure(onTimeout(.connecting))) { work.cancel() }
                    return
                }
                try? await Task.sleep(for: runLimit - connectLimit)
                guard !Task.isCancelled, race.finish(.failure(onTimeout(.running))) else { return }
                work.cancel()
            })
        }
    }

    /// The continuation both tasks race to resume; the first one wins, the loser's outcome is
    /// dropped.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var timer: Task<Void, Never>?
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

        /// Remembers the timer so that an operation finishing first can cancel it; if the
        /// operation already finished, cancels it at once.
        func start(work: Task<Void, Never>, timer: Task<Void, Never>) {
            let finished = state.withLock { state in
                state.timer = timer
                return state.continuation == nil
            }
            if finished { timer.cancel() }
        }

        /// Resumes the caller unless the other side did; returns whether this call did.
        @discardableResult
        func finish(_ result: Result<T, any Error>) -> Bool {
            let taken = state.withLock { state -> (CheckedContinuation<T, any Error>, Task<Void, Never>?)? in
                guard let continuation = state.continuation else { return nil }
                state.continuation = nil
                return (continuation, state.timer)
            }
            guard let (continuation, timer) = taken else { return false }
            timer?.cancel()
            continuation.resume(with: result)
            return true
        }
    }
}

import Synchronization

/// Waits for an operation at most a given time. The operation runs in a task of its own and,
/// when the time is up, is cancelled and left to finish by itself, while the caller gets
/// `onTimeout()`'s error at once.
///
/// A structured task group would not do: it waits for its children, and a query already sent to
/// PostgreSQL is not interrupted by task cancellation (only waiting for a pooled connection is),
/// so a caller would wait as long as a hung connection does. What the abandoned operation can
/// still do is bounded by the server's `statement_timeout` and the connection's death.
enum OperationDeadline {
    static func run<T: Sendable>(
        limit: Duration, onTimeout: @escaping @Sendable () -> any Error, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let race = Race(continuation)
            let work = Task {
                do {
                    race.finish(.success(try await operation()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            race.start(work: work, timer: Task {
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled, race.finish(.failure(onTimeout())) else { return }
                work.cancel()
            })
        }
    }

    /// The continuation both tasks race to resume; the first one wins, the loser's outcome is
    /// dropped. The winner cancels the other task.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var timer: Task<Void, Never>?
        }

        private let state: Mutex<State>

        init(_ continuation: CheckedContinuation<T, any Error>) {
            state = Mutex(State(continuation: continuation))
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

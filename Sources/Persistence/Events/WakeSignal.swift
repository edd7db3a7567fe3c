import Synchronization

/// A level-triggered wake-up for one waiting task: ``signal()`` from anywhere marks it and wakes
/// the waiter; ``wait(upTo:)`` returns at once when marked (clearing the mark), else when
/// signalled or when the time is up. Signals while nobody waits are kept as one, so a burst of
/// them costs the waiter one round.
final class WakeSignal: Sendable {
    private struct State {
        var signalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Marks the signal and wakes the waiter, if any.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.signalled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Waits until signalled (`true`) or `timeout` passed (`false`); clears the mark. One waiter
    /// at a time. Returns at once when the task is cancelled.
    func wait(upTo timeout: Duration) async -> Bool {
        if consume() { return true }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForSignal() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return consume()
    }

    private func consume() -> Bool {
        state.withLock { state in
            defer { state.signalled = false }
            return state.signalled
        }
    }

    private func waitForSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.signalled || Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}

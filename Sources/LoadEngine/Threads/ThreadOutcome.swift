import Dispatch
import Synchronization
import ZeroMQ

/// What a thread started by ``spawn(named:_:)`` returns, for a waiting thread.
final class ThreadOutcome<T: Sendable>: Sendable {
    /// Starts `body` on a new thread named `name` and returns at once; the outcome tells when it
    /// is done and what it returned (for a caller that is a thread itself, not a task).
    static func spawn(named name: String, _ body: @escaping @Sendable () -> T) -> ThreadOutcome<T> {
        let outcome = ThreadOutcome<T>()
        DedicatedThread.start(named: name) { outcome.deliver(body()) }
        return outcome
    }

    private let value = Mutex<T?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Called once, by the thread, with its result.
    func deliver(_ result: T) {
        value.withLock { $0 = result }
        done.signal()
    }

    /// Waits up to `seconds` for the thread to finish; whether it has.
    func wait(seconds: Double) -> Bool {
        if value.withLock({ $0 != nil }) { return true }
        guard done.wait(timeout: .now() + seconds) == .success else { return false }
        // Left signalled, so a later wait returns at once too.
        done.signal()
        return true
    }

    /// The thread's result; blocks until it finished.
    func result() -> T {
        while !wait(seconds: 3600) {}
        return value.withLock { $0! }
    }
}

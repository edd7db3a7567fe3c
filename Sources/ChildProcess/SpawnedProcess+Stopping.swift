#if canImport(Glibc)
import Glibc
#endif

extension SpawnedProcess {
    /// How ``stop(sending:patience:)`` left a child.
    public struct Stopped: Sendable, Hashable {
        /// How it ended; `nil` if it still ran even after SIGKILL and ``killPatience``.
        public let ending: Ending?
        /// Whether it was still running after `patience` and was sent SIGKILL.
        public let killed: Bool
    }

    /// How long a stop waits for a SIGKILL to take effect (longer only for a child stuck in the
    /// kernel).
    public static let killPatience: Duration = .seconds(30)

    /// Sends `signal` (none for `nil`: a child expected to end by itself), waits up to `patience`
    /// for the child to end, and sends SIGKILL if it has not, then waits for that. Polls like
    /// ``waitForEnd(timeout:)``: no thread is blocked.
    @discardableResult
    public func stop(sending signal: Int32? = SIGTERM, patience: Duration) async -> Stopped {
        if let signal { send(signal: signal) }
        if let ending = await waitForEnd(timeout: patience) { return Stopped(ending: ending, killed: false) }
        send(signal: SIGKILL)
        return Stopped(ending: await waitForEnd(timeout: Self.killPatience), killed: true)
    }

    /// ``stop(sending:patience:)``, blocking the calling thread: for synchronous cleanup (a
    /// `deinit`), not for the cooperative pool.
    @discardableResult
    public func stopBlocking(sending signal: Int32? = SIGTERM, patience: Duration) -> Stopped {
        if let signal { send(signal: signal) }
        if let ending = waitForEndBlocking(timeout: patience) { return Stopped(ending: ending, killed: false) }
        send(signal: SIGKILL)
        return Stopped(ending: waitForEndBlocking(timeout: Self.killPatience), killed: true)
    }
}

import Foundation

/// Blocking work on a thread of its own, never on Swift's cooperative pool: a load client's
/// socket loop (blocking libzmq calls), file or database work. The one place the engine starts
/// a thread; the thread lives as long as its work and owns the sockets it opens.
public enum DedicatedThread {
    /// Runs `body` on a new thread named `name` and hands its result, or what it threw, back to
    /// the awaiting task.
    public static func run<T: Sendable, Failure: Error>(
        named name: String, _ body: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<T, Failure>, Never>) in
            start(named: name) { done.resume(returning: Result { () throws(Failure) -> T in try body() }) }
        }
        return try result.get()
    }

    /// Starts `body` on a new thread named `name` and returns at once; the outcome tells when it
    /// is done and what it returned (for a caller that is a thread itself, not a task).
    static func spawn<T: Sendable>(named name: String, _ body: @escaping @Sendable () -> T) -> ThreadOutcome<T> {
        let outcome = ThreadOutcome<T>()
        start(named: name) { outcome.deliver(body()) }
        return outcome
    }

    private static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            // Named from inside: on Linux only that sets the kernel's thread name, which perf,
            // top -H and BenchmarkSupport's ThreadCPU read.
            Thread.current.name = name
            body()
        }
        thread.start()
    }
}

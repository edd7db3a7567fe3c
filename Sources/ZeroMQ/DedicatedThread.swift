internal import CZeroMQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads of their own for blocking work, never Swift's cooperative pool: a socket's whole life
/// (a socket is used by one thread only), a client's blocking exchange, file or database work.
/// The one place the code base starts such a thread and hands its result (or, for a serving
/// thread, its set-up's result) back to a task.
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

    /// Starts a thread named `name` that runs `setUp` and then `serve` with what `setUp` made;
    /// returns `setUp`'s report as soon as there is one, or throws what `setUp` threw (and
    /// `serve` never runs). For a thread that owns a socket for life: `setUp` creates and binds
    /// it, the caller learns the bound address, and the thread serves until it is told to stop.
    /// What `setUp` made never leaves the thread.
    public static func start<Running, Report: Sendable>(
        named name: String,
        setUp: @escaping @Sendable () throws -> (Running, Report),
        serve: @escaping @Sendable (Running) -> Void
    ) async throws -> Report {
        try await withCheckedThrowingContinuation { (ready: CheckedContinuation<Report, any Error>) in
            start(named: name) {
                let running: Running
                do {
                    let report: Report
                    (running, report) = try setUp()
                    ready.resume(returning: report)
                } catch {
                    ready.resume(throwing: error)
                    return
                }
                serve(running)
            }
        }
    }

    /// Starts `body` on a new thread named `name` (its first 15 bytes: Linux refuses longer
    /// names, and perf, top -H and the benchmarks' per-thread CPU read this one) and returns at
    /// once. The thread ends when `body` returns.
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
            work.run()
            return nil
        }, work)
        // Only when the process is out of threads or memory, where nothing sensible can go on.
        precondition(status == 0, "cannot start thread \(name): error \(status)")
        pthread_detach(thread)
    }

    /// What a started thread runs, handed to it through `pthread_create`'s context pointer.
    private final class Work: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            // Whole scalars only, at most 15 bytes of UTF-8.
            var short = String.UnicodeScalarView()
            var length = 0
            for scalar in name.unicodeScalars {
                length += String(scalar).utf8.count
                guard length <= 15 else { break }
                short.append(scalar)
            }
            _ = czmq_name_this_thread(String(short))
            body()
        }
    }
}

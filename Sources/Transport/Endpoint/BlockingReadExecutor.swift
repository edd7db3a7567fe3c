import Dispatch
import Synchronization
import ZeroMQ

/// A task executor of a few dedicated threads, for the reads of a store that answers by blocking
/// its caller's thread for a short while (a local SQLite query), which Swift's cooperative pool
/// must never do. An endpoint whose reads wait for such a store runs each read as a task with
/// this executor as its preference: the whole request (use case, repository, query, encoding)
/// then runs on one of these threads, and crosses threads only twice (from the socket thread and
/// back), where handing only the query to the store's own queues and back took four more
/// crossings (a page of 20 restaurants: 14.5 context switches per request against 6.9 now).
///
/// Every thread runs `setUp` first (e.g. the store's mark that it may block there). Jobs are run
/// in the order they were queued, by whichever thread is free. The queue is bounded in effect by
/// the endpoints' in-flight limits. After ``close()`` the jobs still queued and every later one
/// go to the global concurrent executor (where such a store does not block), and each thread
/// ends once the job it is running, if any, is done.
public final class BlockingReadExecutor: TaskExecutor {
    private let queue = ExecutorJobQueue()
    /// One signal per queued job, and one per thread at ``close()``.
    private let wake = DispatchSemaphore(value: 0)
    private let threadCount: Int
    private let serving = Atomic<Int>(0)

    /// Threads started and not yet ended.
    var threadsServing: Int { serving.load(ordering: .relaxed) }

    /// Starts `threads` threads named `name` (plus a number), each running `setUp` first.
    public init(threads: Int, named name: String, setUp: @escaping @Sendable () -> Void) {
        precondition(threads > 0, "a BlockingReadExecutor needs at least one thread")
        threadCount = threads
        serving.store(threads, ordering: .relaxed)
        for number in 1...threads {
            DedicatedThread.start(named: "\(name)-\(number)") { [self] in
                setUp()
                serve()
                serving.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// Queues `job` for the next free thread (after ``close()``: hands it to the global
    /// concurrent executor).
    public func enqueue(_ job: consuming ExecutorJob) {
        if queue.enqueue(job) { wake.signal() }
    }

    /// Hands the queued jobs to the global concurrent executor and lets the threads end;
    /// returns at once.
    public func close() {
        guard queue.close() else { return }
        for _ in 0..<threadCount { wake.signal() }
    }

    /// A thread's life: one job per signal, until a signal finds the queue closed and empty.
    private func serve() {
        let executor = asUnownedTaskExecutor()
        while true {
            wake.wait()
            let job = queue.takeOldest()
            // Every job queued has its own signal, so a signal that finds none comes after
            // close(), which took the rest and signalled once per thread.
            guard let job else { return }
            job.runSynchronously(on: executor)
        }
    }
}

import Dispatch
import Synchronization
import ZeroMQ

/// A task executor of a few dedicated threads, for the reads of a store that answers by blocking
/// its caller's thread for a short while (a local SQLite query), which Swift's cooperative pool
/// must never do. An endpoint whose reads wait for such a store runs each read as a task with
/// this executor as its preference: the whole request (use case, repository, query, encoding)
/// then runs on one of these threads, and crosses threads only twice (from the socket thread and
/// back), where handing only the query to the store's own queues and back cost four crossings
/// and, for a page of 20 restaurants, about a quarter of the request's time.
///
/// Every thread runs `setUp` first (e.g. the store's mark that it may block there). Jobs are run
/// in the order they were queued, by whichever thread is free. The queue is bounded in effect by
/// the endpoints' in-flight limits. After ``close()`` the threads finish what is queued and end,
/// and later jobs go to the global concurrent executor (where such a store does not block).
public final class BlockingReadExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        /// Index of the oldest job not yet taken.
        var head = 0
        var closed = false
    }

    private let state = Mutex(State())
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
        let unowned = UnownedJob(job)
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(unowned)
            return true
        }
        if accepted {
            wake.signal()
        } else {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        }
    }

    /// Lets the threads end once every job queued so far has run; returns at once.
    public func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        for _ in 0..<threadCount { wake.signal() }
    }

    /// A thread's life: one job per signal, until a signal finds the queue closed and empty.
    private func serve() {
        let executor = asUnownedTaskExecutor()
        while true {
            wake.wait()
            let job: UnownedJob? = state.withLock { state in
                guard state.head < state.jobs.count else { return nil }
                let job = state.jobs[state.head]
                state.head += 1
                if state.head == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head >= 64, state.head * 2 >= state.jobs.count {
                    // A queue that never runs dry would otherwise only grow.
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return job
            }
            // Every job has its own signal, so a signal that finds no job is one of close()'s.
            guard let job else { return }
            job.runSynchronously(on: executor)
        }
    }
}

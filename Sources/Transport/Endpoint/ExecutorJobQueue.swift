import Synchronization

/// The queue of an executor that runs its jobs on a thread of its own (``SocketThreadExecutor``;
/// ``BlockingReadExecutor`` has lanes, ``FairJobQueue``): jobs wait here, oldest first, until
/// that thread takes them. Once the executor is closed its threads take no more, so a job queued after that goes
/// to the global concurrent executor instead: a task still running when its executor's threads
/// are gone can finish.
final class ExecutorJobQueue: Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        /// Index of the oldest job not yet taken.
        var head = 0
        var closed = false

        /// Drops the taken jobs from the front.
        mutating func compact() {
            guard head > 0 else { return }
            jobs.removeFirst(head)
            head = 0
        }
    }

    private let state = Mutex(State())

    /// Queues `job` and returns `true`; once closed, hands it to the global concurrent executor
    /// and returns `false`.
    func enqueue(_ job: consuming ExecutorJob) -> Bool {
        let unowned = UnownedJob(job)
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(unowned)
            return true
        }
        if !accepted {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        }
        return accepted
    }

    /// Takes every queued job, oldest first, into `buffer` (empty on entry).
    func takeAll(into buffer: inout [UnownedJob]) {
        state.withLock { state in
            state.compact()
            swap(&state.jobs, &buffer)
        }
    }

    /// Puts jobs taken but not run back at the front of the queue, in their order.
    func putBack(_ jobs: ArraySlice<UnownedJob>) {
        state.withLock { state in
            state.compact()
            state.jobs.insert(contentsOf: jobs, at: 0)
        }
    }

    /// Closes the queue and hands the jobs still in it, oldest first, to the global concurrent
    /// executor; returns `false` when it was closed already.
    @discardableResult
    func close() -> Bool {
        let remaining: [UnownedJob]? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            state.compact()
            defer { state.jobs = [] }
            return state.jobs
        }
        guard let remaining else { return false }
        for job in remaining {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
        return true
    }
}

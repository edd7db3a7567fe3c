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
/// Every thread runs `setUp` first (e.g. the store's mark that it may block there). Each kind of
/// work queues in a lane of its own (``lane(named:)``, one per use case), and a free thread takes
/// the oldest job of the next lane in turn (``FairJobQueue``): a use case whose reads are slow,
/// or flood in, delays the others by at most one of its jobs per thread, never by its backlog.
/// Jobs that waited past the queue-time target (``setOverdue(after:)``), which refuse themselves,
/// are taken together in their lane's turn.
/// Jobs queued on the executor itself share one lane. The queue is bounded in effect by the
/// endpoints' in-flight limits. After ``close()`` the jobs still queued and every later one go to
/// the global concurrent executor (where such a store does not block), and each thread ends once
/// the job it is running, if any, is done.
public final class BlockingReadExecutor: TaskExecutor {
    /// One lane of the executor's queue: a task executor whose jobs run on the executor's
    /// threads, in turn with the other lanes'.
    public final class Lane: TaskExecutor {
        private let queue: FairJobQueue
        private let wake: DispatchSemaphore
        fileprivate let number: Int

        fileprivate init(queue: FairJobQueue, wake: DispatchSemaphore) {
            self.queue = queue
            self.wake = wake
            number = queue.addLane()
            // Before the lane is handed out, so no job of it is taken without its executor.
            queue.attach(asUnownedTaskExecutor(), toLane: number)
        }

        /// Queues `job` in this lane (after ``BlockingReadExecutor/close()``: hands it to the
        /// global concurrent executor).
        public func enqueue(_ job: consuming ExecutorJob) {
            if queue.enqueue(job, lane: number) { wake.signal() }
        }

        /// How long the oldest job queued in this lane has waited for a thread (zero when none
        /// waits). Past the queue-time target, the lane is that far behind: a request queued now
        /// would wait longer still, so it is refused at once instead (CoDel's sojourn time).
        public var oldestWait: Duration { queue.oldestWait(lane: number) }
    }

    private let queue: FairJobQueue
    /// One signal per queued job, and one per thread at ``close()``.
    private let wake: DispatchSemaphore
    /// The lane of the jobs queued on the executor itself.
    private let ownLane: Lane
    private let threadCount: Int
    private let serving = Atomic<Int>(0)
    /// The lanes made by ``lane(named:)``.
    private let lanes = Mutex<[String: Lane]>([:])

    /// Threads started and not yet ended.
    var threadsServing: Int { serving.load(ordering: .relaxed) }

    /// Starts `threads` threads named `name` (plus a number), each running `setUp` first.
    public init(threads: Int, named name: String, setUp: @escaping @Sendable () -> Void) {
        precondition(threads > 0, "a BlockingReadExecutor needs at least one thread")
        let queue = FairJobQueue()
        let wake = DispatchSemaphore(value: 0)
        self.queue = queue
        self.wake = wake
        ownLane = Lane(queue: queue, wake: wake)
        threadCount = threads
        // The own lane's jobs run as the executor's, the one its tasks prefer: run as the lane's,
        // a task would find itself on another executor than it prefers at its next call of an
        // async function and queue again, at the back of the lane, unbounded by any check.
        queue.attach(asUnownedTaskExecutor(), toLane: ownLane.number)
        serving.store(threads, ordering: .relaxed)
        for number in 1...threads {
            DedicatedThread.start(named: "\(name)-\(number)") { [self] in
                setUp()
                serve()
                serving.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// The lane named `name`, made on first use: every caller naming it (every endpoint of one use
    /// case, in every service of the process) shares its turn.
    public func lane(named name: String) -> Lane {
        lanes.withLock { lanes in
            if let lane = lanes[name] { return lane }
            let lane = Lane(queue: queue, wake: wake)
            lanes[name] = lane
            return lane
        }
    }

    /// Queues `job` in the executor's own lane (after ``close()``: hands it to the global
    /// concurrent executor).
    public func enqueue(_ job: consuming ExecutorJob) {
        ownLane.enqueue(job)
    }

    /// How long the oldest job queued in the executor's own lane has waited (``Lane/oldestWait``).
    public var oldestWait: Duration { ownLane.oldestWait }

    /// The queue-time target of the requests whose reads run here: a job that waited longer is
    /// expected to refuse itself at once, so its lane's turn takes such jobs together (up to 32)
    /// instead of one per round of every lane. `nil` (the default): one job per turn. The
    /// executor is shared by the process's services: the last one set is the one that holds.
    public func setOverdue(after target: Duration?) {
        queue.setOverdue(after: target)
    }

    /// Hands the queued jobs to the global concurrent executor and lets the threads end;
    /// returns at once.
    public func close() {
        guard queue.close() else { return }
        for _ in 0..<threadCount { wake.signal() }
    }

    /// A thread's life: one job per signal, until a signal finds the queue closed and empty.
    private func serve() {
        while true {
            wake.wait()
            // Every job queued has its own signal, so a signal that finds none comes after
            // close(), which took the rest and signalled once per thread.
            guard let (job, executor) = queue.takeNext() else { return }
            job.runSynchronously(on: executor)
        }
    }
}

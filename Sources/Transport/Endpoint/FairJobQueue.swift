import Synchronization

/// The queue of a ``BlockingReadExecutor``: one first-in-first-out lane per kind of work (per
/// use case), served round-robin. A thread that becomes free takes the oldest job of the next
/// lane that has any, so a lane with a thousand slow jobs queued delays a job of another lane by
/// at most one job per busy lane ahead of it, never by the whole backlog.
///
/// Lanes are kept in a ring of those that have jobs: taking and queueing are O(1) whatever the
/// number of lanes. Once closed, jobs go to the global concurrent executor (see
/// ``ExecutorJobQueue``).
final class FairJobQueue: Sendable {
    /// One lane's jobs, oldest first from `head`, each with when it was queued.
    private struct Lane {
        /// The executor its jobs run on (attached right after the lane is added).
        var executor: UnownedTaskExecutor?
        var jobs: [(job: UnownedJob, queuedAt: ContinuousClock.Instant)] = []
        var head = 0
        var isEmpty: Bool { head == jobs.count }

        mutating func takeOldest() -> (job: UnownedJob, queuedAt: ContinuousClock.Instant) {
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= jobs.count {
                // A lane that never runs dry would otherwise only grow.
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }

        mutating func takeAll() -> [UnownedJob] {
            defer { jobs = []; head = 0 }
            return jobs[head...].map(\.job)
        }
    }

    private struct State {
        var lanes: [Lane] = []
        /// Indices of the lanes that have jobs, each once, in the order they are served.
        var ready: [Int] = []
        var readyHead = 0
        var closed = false
        /// See ``setOverdue(after:)``.
        var overdueAfter: Duration?
        /// Overdue jobs taken in the current lane's turn.
        var overdueInTurn = 0
    }

    private let state = Mutex(State())

    /// Adds an empty lane and returns its number; attach its executor before queueing in it.
    func addLane() -> Int {
        state.withLock { state in
            state.lanes.append(Lane())
            return state.lanes.count - 1
        }
    }

    /// Names the executor the jobs of `lane` run on.
    func attach(_ executor: UnownedTaskExecutor, toLane lane: Int) {
        state.withLock { $0.lanes[lane].executor = executor }
    }

    /// Queues `job` in `lane` and returns `true`; once closed, hands it to the global concurrent
    /// executor and returns `false`.
    func enqueue(_ job: consuming ExecutorJob, lane: Int) -> Bool {
        let unowned = UnownedJob(job)
        let now = ContinuousClock.now
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            if state.lanes[lane].isEmpty { state.ready.append(lane) }
            state.lanes[lane].jobs.append((unowned, now))
            return true
        }
        if !accepted {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        }
        return accepted
    }

    /// How long the oldest job queued in `lane` has waited (zero when the lane is empty): how far
    /// behind the lane is, the wait a job queued now will at least have when every lane is busy.
    func oldestWait(lane: Int) -> Duration {
        guard let queuedAt = state.withLock({ state in state.lanes[lane].isEmpty ? nil : state.lanes[lane].jobs[state.lanes[lane].head].queuedAt }) else {
            return .zero
        }
        return queuedAt.duration(to: .now)
    }

    /// Takes the oldest job of the next lane in turn, if any lane has one, with the executor it
    /// runs on.
    func takeNext() -> (job: UnownedJob, executor: UnownedTaskExecutor)? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard state.readyHead < state.ready.count else { return nil }
            let lane = state.ready[state.readyHead]
            let (job, queuedAt) = state.lanes[lane].takeOldest()
            if let overdueAfter = state.overdueAfter, queuedAt.duration(to: now) > overdueAfter,
                state.overdueInTurn < Self.overdueJobsPerTurn, !state.lanes[lane].isEmpty
            {
                // Waited past the target: it will refuse itself, in microseconds. The lane keeps
                // its turn, so a backlog of such jobs is answered at once instead of one per
                // round of every lane (seconds behind a few slow lanes).
                state.overdueInTurn += 1
                return (job, state.lanes[lane].executor!)
            }
            state.overdueInTurn = 0
            state.readyHead += 1
            // Still has jobs: its turn comes again after every other lane with jobs.
            if !state.lanes[lane].isEmpty { state.ready.append(lane) }
            if state.readyHead == state.ready.count {
                state.ready.removeAll(keepingCapacity: true)
                state.readyHead = 0
            } else if state.readyHead >= 64, state.readyHead * 2 >= state.ready.count {
                state.ready.removeFirst(state.readyHead)
                state.readyHead = 0
            }
            // Attached before the lane was handed out (see attach).
            return (job, state.lanes[lane].executor!)
        }
    }

    /// How many jobs that waited past ``setOverdue(after:)`` one turn of a lane may take besides
    /// its one job: enough to answer a backlog quickly, few enough that jobs which turn out not
    /// to refuse themselves (a read exempt from the target) cannot hold up the other lanes long.
    static let overdueJobsPerTurn = 32

    /// Jobs that waited longer than `after` are expected to refuse themselves (the queue-time
    /// target): a lane's turn takes them together, up to ``overdueJobsPerTurn``, before its one
    /// job in time. `nil`: every job is one turn.
    func setOverdue(after: Duration?) {
        state.withLock { $0.overdueAfter = after }
    }

    /// Closes the queue and hands the jobs still in it to the global concurrent executor;
    /// returns `false` when it was closed already.
    @discardableResult
    func close() -> Bool {
        let remaining: [UnownedJob]? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            var remaining: [UnownedJob] = []
            for index in state.lanes.indices { remaining += state.lanes[index].takeAll() }
            state.ready = []
            state.readyHead = 0
            return remaining
        }
        guard let remaining else { return false }
        for job in remaining {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
        return true
    }
}

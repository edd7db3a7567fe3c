import Synchronization

/// Runs an endpoint's Swift work — its serve task, the use case, the actors the use case calls —
/// on the endpoint's socket thread, between polls. `RouterEndpoint.run()` serves under
/// `withTaskExecutorPreference(_:)` with this executor, so a request is received, handled and
/// answered on one thread, with no hand-off to the cooperative pool and back (two thread
/// wake-ups per request when the threads are idle, and most of the remaining CPU cost).
///
/// The socket thread never blocks while jobs are queued: an enqueue raises a count that the
/// thread reads before it polls, and wakes it through the outbox's eventfd hand-shake if it is
/// already asleep (see `ReplyOutbox`). It runs jobs for about 50 µs at a time, then serves the
/// socket again, so refusals (`unavailable`, `overloaded`, malformed) and replies still go out
/// while work is queued; but one long job (e.g. encoding a very large search result) now holds
/// the socket for its whole duration. Once the socket thread is done, ``close()`` hands every
/// queued and later job to the global concurrent executor, so the serve task can still finish.
///
/// Child tasks inherit the preference: work meant to run in parallel (or to block, e.g. on a
/// database) should be started with `executorPreference: globalConcurrentExecutor`.
///
/// It is also the serial executor of the endpoint's ``EndpointHost`` actor: the socket thread
/// runs one job at a time, so the actor's isolation holds and entering the actor from the
/// endpoint's own work costs no thread hand-off.
final class SocketThreadExecutor: TaskExecutor, SerialExecutor {
    private let queue = ExecutorJobQueue()
    /// Jobs queued and not yet taken, readable without the lock.
    private let pending = Atomic<Int>(0)
    private let outbox: ReplyOutbox

    init(outbox: ReplyOutbox) {
        self.outbox = outbox
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if queue.enqueue(job) {
            pending.add(1, ordering: .sequentiallyConsistent)
            outbox.wakeIfSleeping()
        }
    }

    /// Socket thread, after ``ReplyOutbox/prepareToSleep()``: whether no job is queued.
    var isIdle: Bool {
        pending.load(ordering: .sequentiallyConsistent) == 0
    }

    /// Socket thread: runs the queued jobs and those they queue in turn, for at most about
    /// `budget` (checked between jobs), so that the socket is served — requests refused with
    /// `unavailable` or `overloaded`, replies sent — at least that often while work is queued.
    /// `buffer` is the thread's own scratch array, empty on entry and on return.
    func runPending(using buffer: inout [UnownedJob], budget: Duration = .microseconds(50)) {
        let clock = ContinuousClock()
        let end = clock.now + budget
        while true {
            queue.takeAll(into: &buffer)
            guard !buffer.isEmpty else { return }
            let taskExecutor = asUnownedTaskExecutor()
            let serialExecutor = asUnownedSerialExecutor()
            var index = 0
            while index < buffer.count {
                buffer[index].runSynchronously(isolatedTo: serialExecutor, taskExecutor: taskExecutor)
                index += 1
                if index < buffer.count, clock.now >= end { break }
            }
            pending.subtract(index, ordering: .sequentiallyConsistent)
            if index < buffer.count {
                // Out of time: the jobs not run go back to the front of the queue, in order.
                queue.putBack(buffer[index...])
                buffer.removeAll(keepingCapacity: true)
                return
            }
            buffer.removeAll(keepingCapacity: true)
            if clock.now >= end { return }
        }
    }

    /// The socket thread is done (or never started): queued jobs and every later one go to the
    /// global concurrent executor. By then the host actor's only remaining job is the end of
    /// its one serve task, whose jobs never run concurrently, so its isolation still holds.
    func close() {
        queue.close()
        pending.store(0, ordering: .sequentiallyConsistent)
    }
}

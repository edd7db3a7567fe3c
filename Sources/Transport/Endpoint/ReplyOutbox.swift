import Synchronization
import ZeroMQ

/// Replies waiting for the socket thread. The host side appends without blocking; it writes the
/// eventfd that the socket thread polls only when that thread has said it is about to sleep, so
/// the thread wakes exactly when there is something to send, never spins or polls on a timer,
/// and a busy thread is not sent (and does not read back) a wake-up per reply.
///
/// The hand-shake (all sequentially consistent): the socket thread calls ``prepareToSleep()``
/// (which sets the flag, then reads the count of queued replies) before it polls, and
/// ``awake()`` after. A push appends, raises the count, then takes the flag. Either the thread's
/// read of the count comes after the raise (it sees the reply and does not sleep), or it comes
/// before, and then the flag was set before the push took it, so the push writes the eventfd.
final class ReplyOutbox: Sendable {
    private let queue = Mutex<[OutboundReply]>([])
    /// Replies pushed and not yet taken, so the socket thread can look without the lock.
    private let queued = Atomic<Int>(0)
    /// Set while the socket thread is in (or about to enter) a blocking poll.
    private let sleeping = Atomic<Bool>(false)
    /// Polled by the socket thread.
    let wakeup: EventFD

    init() throws(ZMQError) {
        wakeup = try EventFD()
    }

    /// Queues a reply and wakes the socket thread if it may be asleep.
    func push(_ reply: consuming OutboundReply) {
        // Moved into the queue: appending the closure's capture would copy the reply (its
        // envelope, body and span retained, then released with the parameter).
        var moving = Optional(reply)
        queue.withLock { queue in queue.append(moving.take()!) }
        queued.add(1, ordering: .sequentiallyConsistent)
        wakeIfSleeping()
    }

    /// After making work visible to the socket thread (raising a count it reads in its
    /// hand-shake): writes the eventfd if the thread is, or is about to be, asleep.
    func wakeIfSleeping() {
        if sleeping.load(ordering: .sequentiallyConsistent), sleeping.exchange(false, ordering: .sequentiallyConsistent) {
            wake()
        }
    }

    /// Wakes the socket thread (also used to make it notice a stop request).
    func wake() {
        // The only failure is a counter overflow, which still leaves the fd readable.
        try? wakeup.signal()
    }

    /// Socket thread, before polling: announces that it may sleep; returns `false` when replies
    /// are already queued (then it must not block: poll with timeout 0).
    func prepareToSleep() -> Bool {
        sleeping.store(true, ordering: .sequentiallyConsistent)
        return queued.load(ordering: .sequentiallyConsistent) == 0
    }

    /// Socket thread, after polling: pushes need not write the eventfd until the next
    /// ``prepareToSleep()``.
    func awake() {
        sleeping.store(false, ordering: .sequentiallyConsistent)
    }

    /// Moves every queued reply into `replies` (which must be empty), keeping both buffers'
    /// capacity.
    func takeAll(into replies: inout [OutboundReply]) {
        queue.withLock { queue in swap(&queue, &replies) }
        if !replies.isEmpty {
            queued.subtract(replies.count, ordering: .sequentiallyConsistent)
        }
    }

    deinit {
        wakeup.close()
    }
}

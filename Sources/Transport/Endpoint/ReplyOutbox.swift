import Synchronization
import ZeroMQ

/// Replies waiting for the socket thread. The actor side appends without blocking; when the
/// queue goes from empty to non-empty it writes the eventfd that the socket thread polls, so the
/// thread wakes exactly when there is something to send and never spins or polls on a timer.
final class ReplyOutbox: Sendable {
    private let queue = Mutex<[OutboundReply]>([])
    /// Polled by the socket thread.
    let wakeup: EventFD

    init() throws(ZMQError) {
        wakeup = try EventFD()
    }

    /// Queues a reply and wakes the socket thread if it may be asleep.
    func push(_ reply: OutboundReply) {
        let wasEmpty = queue.withLock { queue in
            queue.append(reply)
            return queue.count == 1
        }
        if wasEmpty { wake() }
    }

    /// Wakes the socket thread (also used to make it notice a stop request).
    func wake() {
        // The only failure is a counter overflow, which still leaves the fd readable.
        try? wakeup.signal()
    }

    /// Moves every queued reply into `replies` (which must be empty), keeping both buffers'
    /// capacity. The caller drains the eventfd first so a push racing this call re-signals.
    func takeAll(into replies: inout [OutboundReply]) {
        queue.withLock { queue in swap(&queue, &replies) }
    }

    deinit {
        wakeup.close()
    }
}

import Synchronization
import ZeroMQ

/// Messages on their way from the publishing task to the stream's socket thread, one batch at a
/// time: the task hands a batch over and waits until the thread has sent it, so at most one
/// batch is ever queued (the bound of this queue), and the thread is woken through an eventfd.
final class EventStreamOutbox: Sendable {
    /// One message: the type frame and the event's JSON.
    struct Message: Sendable {
        let type: [UInt8]
        let body: [UInt8]
    }

    private struct Pending: Sendable {
        let messages: [Message]
        let sent: CheckedContinuation<Void, Never>
    }

    private let pending = Mutex<Pending?>(nil)
    private let stopping = Atomic<Bool>(false)
    /// Polled by the socket thread.
    let wakeup: EventFD

    init() throws(ZMQError) {
        wakeup = try EventFD()
    }

    /// Hands `messages` to the socket thread; returns once they are sent (or dropped because the
    /// stream stopped).
    func send(_ messages: [Message]) async {
        await withCheckedContinuation { (sent: CheckedContinuation<Void, Never>) in
            let refused = pending.withLock { pending -> Bool in
                guard !stopping.load(ordering: .acquiring) else { return true }
                precondition(pending == nil, "one batch at a time")
                pending = Pending(messages: messages, sent: sent)
                return false
            }
            if refused { sent.resume() } else { wake() }
        }
    }

    /// Socket thread: the batch to send, and what to call once it is sent.
    func take() -> (messages: [Message], sent: @Sendable () -> Void)? {
        guard let taken = pending.withLock({ pending in defer { pending = nil }; return pending }) else { return nil }
        return (taken.messages, { taken.sent.resume() })
    }

    /// Asks the socket thread to close the socket and end; later batches are dropped.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake()
    }

    /// Whether ``stop()`` was called.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func wake() {
        // The only failure is a counter overflow, which still leaves the fd readable.
        try? wakeup.signal()
    }

    deinit {
        wakeup.close()
    }
}

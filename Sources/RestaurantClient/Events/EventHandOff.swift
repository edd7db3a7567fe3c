import Dispatch
import Synchronization

/// Events on their way from a follower's thread to the task iterating a
/// ``RestaurantEventStream``: at most ``capacity`` wait at once. A full hand-off blocks the
/// follower's thread (its own, never the cooperative pool's) until the consumer takes one, so a
/// slow consumer holds up nobody but its follower, whose live subscription then drops messages
/// it later reads from the log.
final class EventHandOff: Sendable {
    private struct State {
        var queue: [RestaurantEvent] = []
        var head = 0
        /// Set once the follower ended: `nil` error for a clean end.
        var end: RestaurantClientError??
        var waiter: CheckedContinuation<Void, Never>?
        var stopped = false
    }

    private enum Step {
        case event(RestaurantEvent)
        case end(RestaurantClientError?)
        case wait
    }

    /// Events waiting at most.
    let capacity: Int
    private let state = Mutex(State())
    private let space: DispatchSemaphore

    init(capacity: Int) {
        self.capacity = capacity
        space = DispatchSemaphore(value: capacity)
    }

    /// Whether the consumer has gone (the follower should stop).
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Follower's thread: hands `event` over, waiting for room; `false` once the consumer has
    /// gone.
    func push(_ event: RestaurantEvent) -> Bool {
        space.wait()
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.stopped else { return (false, nil) }
            state.queue.append(event)
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        if !accepted { space.signal() }
        waiter?.resume()
        return accepted
    }

    /// Follower's thread: no more events; the consumer gets `error` after those waiting, or the
    /// end of the sequence.
    func finish(_ error: RestaurantClientError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.end == nil { state.end = .some(error) }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Consumer: the next event; `nil` at the end (or once the consumer stopped); throws what
    /// ended the follower.
    func next() async throws(RestaurantClientError) -> RestaurantEvent? {
        while true {
            let step = state.withLock { state -> Step in
                if state.head < state.queue.count {
                    let event = state.queue[state.head]
                    state.head += 1
                    if state.head > 256, state.head * 2 > state.queue.count {
                        state.queue.removeFirst(state.head)
                        state.head = 0
                    }
                    return .event(event)
                }
                if state.stopped { return .end(nil) }
                if let end = state.end { return .end(end) }
                return .wait
            }
            switch step {
            case .event(let event):
                space.signal()
                return event
            case .end(let error):
                if let error { throw error }
                return nil
            case .wait:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let ready = state.withLock { state -> Bool in
                            if state.head < state.queue.count || state.end != nil || state.stopped { return true }
                            state.waiter = continuation
                            return false
                        }
                        if ready { continuation.resume() }
                    }
                } onCancel: {
                    stop()
                }
            }
        }
    }

    /// Consumer: gone; the follower stops at its next look.
    func stop() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.stopped = true
            defer { state.waiter = nil }
            return state.waiter
        }
        // Wakes a follower blocked on a full hand-off; it then sees the stop.
        space.signal()
        waiter?.resume()
    }
}

import Synchronization

/// The batches of requests a socket thread hands its endpoint's ``RequestHandler``, in order: a
/// queue with one producer (the socket thread, which never waits on it) and one consumer (the
/// handler's `serve` loop, which suspends while it is empty), ended by ``finish()``.
///
/// Not an `AsyncStream`: its storage is generic code of the concurrency library that Swift cannot
/// specialise for the element type, so every `yield` and `next()` looked up type metadata
/// (`Optional`, `Array`, `Range`, …) at run time, and each `next()` installed a cancellation
/// handler and took more task switches to resume. One GetRestaurant through the endpoint
/// (callgrind, release, in-memory store, one in flight) took 60,700 instructions on the socket
/// thread with the stream and 38,700 with this queue; 70,800 and 52,000 on all threads. Unbounded
/// here is bounded in effect: the socket thread admits at most `maxInFlight` unanswered requests.
/// The stream never ends on the consumer's cancellation: the socket thread finishes it whenever
/// it stops, also when the endpoint's task is cancelled (see ``RouterEndpoint``).
final class RequestBatches: AsyncSequence, Sendable {
    typealias Element = [InboundRequest]
    typealias Failure = Never

    private struct State: ~Copyable {
        /// Batches not yet taken, from `head` on; taken slots are cleared, and the array is
        /// compacted once half of it is taken.
        var queue: [[InboundRequest]] = []
        var head = 0
        /// The consumer, while it waits for a batch.
        var waiting: UnsafeContinuation<[InboundRequest]?, Never>?
        var finished = false

        /// The next batch, if one is queued.
        mutating func take() -> [InboundRequest]? {
            guard head < queue.count else { return nil }
            let batch = queue[head]
            queue[head] = []
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= queue.count {
                queue.removeSubrange(0..<head)
                head = 0
            }
            return batch
        }

        /// What the consumer gets without waiting: `.some(batch)`, `.some(nil)` once finished
        /// and empty, or `nil` when it must wait.
        mutating func takeOrEnd() -> [InboundRequest]?? {
            if let batch = take() { return .some(batch) }
            return finished ? .some(nil) : nil
        }
    }

    private let state = Mutex(State())
    /// Released by the consumer after it stores its continuation, acquired by whoever takes it
    /// to resume it, both under the lock. The lock already orders the two, but when it is
    /// contended it changes hands in the Synchronization library's uninstrumented slow path
    /// (.ci/tsan-suppressions.txt), and ThreadSanitizer, seeing no order, reported the resume's
    /// read of the continuation against the consumer's write of it as a race.
    private let handOff = Atomic<Int>(0)

    /// An empty, open queue.
    init() {}

    /// Queues `batch` for the consumer, or hands it over at once when the consumer waits; a
    /// batch yielded after ``finish()`` is dropped. Never blocks beyond the queue's lock.
    func yield(_ batch: [InboundRequest]) {
        let consumer = state.withLock { state -> UnsafeContinuation<[InboundRequest]?, Never>? in
            guard !state.finished else { return nil }
            if let waiting = state.waiting {
                state.waiting = nil
                _ = handOff.load(ordering: .acquiring)
                return waiting
            }
            state.queue.append(batch)
            return nil
        }
        consumer?.resume(returning: batch)
    }

    /// Ends the sequence: the consumer takes what is queued, then gets `nil`.
    func finish() {
        let consumer = state.withLock { state -> UnsafeContinuation<[InboundRequest]?, Never>? in
            state.finished = true
            defer { state.waiting = nil }
            if state.waiting != nil { _ = handOff.load(ordering: .acquiring) }
            return state.waiting
        }
        consumer?.resume(returning: nil)
    }

    /// The next batch, waiting for one while the queue is empty; `nil` once finished and empty.
    /// Resumes on the caller's isolation (the handler's actor, on the socket thread).
    fileprivate func next(isolation actor: isolated (any Actor)?) async -> [InboundRequest]? {
        if let ready = state.withLock({ $0.takeOrEnd() }) {
            return ready
        }
        return await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<[InboundRequest]?, Never>) in
            // Checked again under the lock: a batch or the end may have come since.
            let ready = state.withLock { state -> [InboundRequest]?? in
                let ready = state.takeOrEnd()
                if ready == nil {
                    state.waiting = continuation
                    handOff.wrappingAdd(1, ordering: .releasing)
                }
                return ready
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The one consumer's iterator.
    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let batches: RequestBatches

        mutating func next() async -> [InboundRequest]? {
            await batches.next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> [InboundRequest]? {
            await batches.next(isolation: actor)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(batches: self)
    }
}

import Domain
import Synchronization

/// The newest end of a store's event log, as the live stream follows it: the highest seq known
/// to be committed, the newest events themselves where the store hands them over at commit
/// (SQLite and memory, in commit order), and the readers waiting for more. A reader that fell
/// further behind than the events held (or, on PostgreSQL, where none are held) reads the log.
///
/// Writers never wait for readers: the held events are a bounded window (``capacity``) that
/// drops its oldest, and a slow reader then reads what it missed from the log.
final class EventTail: Sendable {
    private struct State {
        var lastSeq: Int64
        /// The held events, each at slot `seq % capacity`: the ``heldCount`` contiguous events
        /// ending at ``lastSeq`` (a ring, so that holding one more costs no shift of the others).
        var ring: [LoggedEvent?]
        var heldCount = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0

        /// The first seq held (meaningful while ``heldCount`` > 0).
        var firstHeld: Int64 { lastSeq - Int64(heldCount) + 1 }
    }

    private enum Waiter {
        case waiting(CheckedContinuation<Void, any Error>)
        case cancelled
    }

    /// The most events held.
    let capacity: Int
    private let state: Mutex<State>

    /// A tail whose log's highest seq is `lastSeq`.
    init(lastSeq: Int64, capacity: Int = 8192) {
        precondition(capacity > 0, "an event tail holds at least one event")
        self.capacity = capacity
        state = Mutex(State(lastSeq: lastSeq, ring: Array(repeating: nil, count: capacity)))
    }

    /// The highest seq known to be committed.
    var lastSeq: Int64 {
        state.withLock { $0.lastSeq }
    }

    /// `event` was committed (called in commit order). An event that does not follow the last
    /// one (another process wrote the file in between) restarts the held window, so readers read
    /// the gap from the log instead of skipping it.
    func committed(_ event: LoggedEvent) {
        let waiters = state.withLock { state -> [Waiter] in
            if event.seq > state.lastSeq {
                state.heldCount = event.seq == state.lastSeq + 1 ? min(state.heldCount + 1, capacity) : 1
                state.ring[slot(event.seq)] = event
                state.lastSeq = event.seq
            } else {
                // Not after the last one: hold nothing, so readers read the log.
                state.heldCount = 0
            }
            return Self.takeWaiters(&state)
        }
        Self.wake(waiters)
    }

    /// The log's highest seq is at least `seq` now (PostgreSQL: numbered by some instance).
    func advanced(to seq: Int64) {
        let waiters = state.withLock { state -> [Waiter] in
            guard seq > state.lastSeq else { return [] }
            state.lastSeq = seq
            // The held window must end at lastSeq; events it lacks are read from the log.
            state.heldCount = 0
            return Self.takeWaiters(&state)
        }
        Self.wake(waiters)
    }

    /// Up to `limit` events after `after`, in seq order, as soon as there is one: from the held
    /// window when it covers them, else from `read` (the log). Throws `CancellationError` when
    /// the task is cancelled while waiting.
    func next(after: Int64, limit: Int, read: (Int64, Int) async throws -> [LoggedEvent]) async throws -> [LoggedEvent] {
        while true {
            try Task.checkCancellation()
            let (last, held) = state.withLock { state -> (Int64, [LoggedEvent]?) in
                guard state.lastSeq > after, state.heldCount > 0, state.firstHeld <= after + 1 else { return (state.lastSeq, nil) }
                let end = min(state.lastSeq, after + Int64(limit))
                var events: [LoggedEvent] = []
                events.reserveCapacity(Int(end - after))
                for seq in (after + 1)...end {
                    if let event = state.ring[slot(seq)] { events.append(event) }
                }
                return (state.lastSeq, events)
            }
            if let held { return held }
            if last > after {
                let events = try await read(after, limit)
                if !events.isEmpty { return events }
            }
            try await waitForMore(than: max(after, last))
        }
    }

    /// Where `seq` is held in the ring.
    private func slot(_ seq: Int64) -> Int {
        Int(seq.magnitude % UInt64(capacity))
    }

    /// Returns once the highest committed seq exceeds `seq`.
    private func waitForMore(than seq: Int64) async throws {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if case .cancelled? = state.waiters.removeValue(forKey: id) { return .failure(CancellationError()) }
                    if state.lastSeq > seq { return .success(()) }
                    state.waiters[id] = .waiting(continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if case .waiting(let continuation)? = state.waiters.removeValue(forKey: id) { return continuation }
                state.waiters[id] = .cancelled
                return nil
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    private static func takeWaiters(_ state: inout State) -> [Waiter] {
        guard !state.waiters.isEmpty else { return [] }
        let waiting = state.waiters.filter { if case .waiting = $0.value { true } else { false } }
        state.waiters = state.waiters.filter { if case .cancelled = $0.value { true } else { false } }
        return Array(waiting.values)
    }

    private static func wake(_ waiters: [Waiter]) {
        for case .waiting(let continuation) in waiters { continuation.resume() }
    }
}

import Synchronization

/// Transport-level counts of one endpoint, written by its socket thread, readable from anywhere.
public final class EndpointCounters: Sendable {
    private let dropped = Atomic<Int>(0)
    private let rejected = Atomic<Int>(0)
    private let inFlightNow = Atomic<Int>(0)

    /// Creates zeroed counters.
    public init() {}

    /// Replies that could not be delivered because the peer vanished or stopped reading.
    public var droppedReplies: Int { dropped.load(ordering: .relaxed) }
    /// Requests answered by the transport itself (malformed, overloaded, unavailable).
    public var transportRejections: Int { rejected.load(ordering: .relaxed) }
    /// Requests accepted and not yet answered.
    public var inFlight: Int { inFlightNow.load(ordering: .relaxed) }

    func countDroppedReply() { dropped.add(1, ordering: .relaxed) }
    func countRejection() { rejected.add(1, ordering: .relaxed) }
    func setInFlight(_ value: Int) { inFlightNow.store(value, ordering: .relaxed) }
}

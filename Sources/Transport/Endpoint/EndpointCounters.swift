import Metrics
import Synchronization

/// Transport-level counts of one endpoint, written by its socket thread, readable from anywhere.
///
/// Also feeds swift-metrics: a `Counter` "svc_replies_dropped_total" and a gauge
/// "svc_requests_in_flight", both labelled with the use case.
public final class EndpointCounters: Sendable {
    private let dropped = Atomic<Int>(0)
    private let rejected = Atomic<Int>(0)
    private let inFlightNow = Atomic<Int>(0)
    private let droppedCounter: Counter
    private let inFlightGauge: Gauge

    /// Creates zeroed counters whose metrics, from `metrics`, carry the label `use_case`.
    public init(useCase: String, metrics: any MetricsFactory) {
        droppedCounter = Counter(label: "svc_replies_dropped_total", dimensions: [("use_case", useCase)], factory: metrics)
        inFlightGauge = Gauge(label: "svc_requests_in_flight", dimensions: [("use_case", useCase)], factory: metrics)
        // A scrape before the first request shows 0, not a missing series.
        inFlightGauge.record(0)
    }

    /// Replies that could not be delivered because the peer vanished or stopped reading.
    public var droppedReplies: Int { dropped.load(ordering: .relaxed) }
    /// Requests answered by the transport itself (malformed, overloaded, unavailable).
    public var transportRejections: Int { rejected.load(ordering: .relaxed) }
    /// Requests accepted and not yet answered.
    public var inFlight: Int { inFlightNow.load(ordering: .relaxed) }

    func countDroppedReply() {
        dropped.add(1, ordering: .relaxed)
        droppedCounter.increment()
    }

    func countRejection() { rejected.add(1, ordering: .relaxed) }

    func setInFlight(_ value: Int) {
        inFlightNow.store(value, ordering: .relaxed)
        inFlightGauge.record(value)
    }
}

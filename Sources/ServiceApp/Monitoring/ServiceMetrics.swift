import Metrics
import Prometheus

/// The service's metrics in one Prometheus registry (and its timers beside it): the swift-metrics factory that the
/// endpoints and the SQLite store record through, and the exposition text of everything they
/// recorded, which `GET /metrics` and the admin `stats` op (format `prometheus`) both serve.
///
/// The composition root hands the factory to every part explicitly, so several services in one
/// process (the tests) each have their own registry; `svcd` also bootstraps `MetricsSystem` with
/// ``factory``, once, so libraries that record through the global system land in the same text.
public struct ServiceMetrics: Sendable {
    /// Where every metric but the timers lives.
    public let registry: PrometheusCollectorRegistry
    /// Makes swift-metrics handlers, with the service's histogram buckets: in ``registry``, but
    /// for timers (``ServiceMetricsFactory``).
    public let factory: ServiceMetricsFactory

    /// Request and commit durations: from 100 µs (an in-memory read) to 10 s.
    static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]
    /// Writes per commit: powers of two up to the group committer's largest batch (1024).
    static let batchSizeBuckets: [Double] = (0...10).map { Double(1 << $0) }

    /// A new, empty registry and its factory.
    public init() {
        registry = PrometheusCollectorRegistry()
        var prometheus = PrometheusMetricsFactory(registry: registry)
        prometheus.defaultDurationHistogramBuckets = Self.durationBuckets
        prometheus.valueHistogramBuckets = ["svc_store_commit_batch_size": Self.batchSizeBuckets]
        factory = ServiceMetricsFactory(prometheus: prometheus, timerBuckets: Self.durationBuckets)
    }

    /// Everything recorded so far, in the Prometheus text exposition format (version 0.0.4).
    public func exposition() -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64 * 1024)
        registry.emit(into: &buffer)
        factory.timers.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}

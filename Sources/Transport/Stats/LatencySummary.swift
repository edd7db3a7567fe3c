/// Percentiles of request latency, in microseconds: from the moment the endpoint's socket thread
/// received the request to the moment its reply was queued for sending. All zero when no request
/// has been answered.
public struct LatencySummary: Sendable, Hashable {
    /// The median.
    public var p50: Double
    /// The 90th percentile.
    public var p90: Double
    /// The 99th percentile.
    public var p99: Double
    /// The largest latency recorded.
    public var max: Double

    /// Creates a summary from its percentiles (in microseconds).
    public init(p50: Double, p90: Double, p99: Double, max: Double) {
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// No requests: every percentile is zero.
    public static let zero = LatencySummary(p50: 0, p90: 0, p99: 0, max: 0)
}

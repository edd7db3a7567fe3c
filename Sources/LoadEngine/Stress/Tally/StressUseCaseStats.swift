import Histogram

/// Per-use-case results of a stress run.
public struct StressUseCaseStats: Sendable {
    /// Requests sent.
    public var sent = 0
    /// `ok: true` replies.
    public var ok = 0
    /// Error replies by code, plus `timeout` for requests never answered.
    public var errors: [String: Int] = [:]
    /// Latency from the intended send time, in microseconds (filled in from ``StressProgress``).
    public var latency = LatencyHistogram.make()

    /// Adds `other`'s counts (latencies are kept centrally, see ``StressProgress``).
    mutating func merge(_ other: StressUseCaseStats) {
        sent += other.sent
        ok += other.ok
        errors.merge(other.errors, uniquingKeysWith: +)
    }
}

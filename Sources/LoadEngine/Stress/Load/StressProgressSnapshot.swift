import Histogram

/// Where a stress load is, for a live progress line: handed to the caller about once a second.
public struct StressProgressSnapshot: Sendable {
    /// Seconds since the schedule's start (0 before it).
    public let elapsedSeconds: Double
    /// The clients' counts so far.
    public let tally: StressTally
    /// Requests waiting for replies now.
    public let inFlight: Int
    /// The latencies recorded since the previous snapshot, in microseconds.
    public let recent: Histogram<UInt64>
    /// Whether this is the run's last snapshot, taken once every load thread has finished.
    public var isFinal = false
}

/// The figures of one timed run: one target, one in-flight setting, one round.
struct RunResult: Sendable {
    let target: BenchTarget
    let inFlight: Int
    /// 1-based round number.
    let round: Int
    /// Replies received inside the measurement window (error replies included).
    let roundTrips: Int
    /// Replies inside the window that were not the expected answer (non-ok for the service).
    let errors: Int
    /// Length of the measurement window.
    let windowNanoseconds: UInt64
    let p50Nanoseconds: UInt64
    let p99Nanoseconds: UInt64

    /// Builds the result from the window's per-request latencies (sorted in place).
    init(target: BenchTarget, inFlight: Int, round: Int, latencies: inout [UInt64], errors: Int, windowNanoseconds: UInt64) {
        latencies.sort()
        self.target = target
        self.inFlight = inFlight
        self.round = round
        self.roundTrips = latencies.count
        self.errors = errors
        self.windowNanoseconds = windowNanoseconds
        self.p50Nanoseconds = Self.percentile(latencies, 0.50)
        self.p99Nanoseconds = Self.percentile(latencies, 0.99)
    }

    /// Round trips per second over the window.
    var throughput: Double {
        Double(roundTrips) / (Double(windowNanoseconds) / 1e9)
    }

    var p50Microseconds: Double { Double(p50Nanoseconds) / 1000 }
    var p99Microseconds: Double { Double(p99Nanoseconds) / 1000 }

    /// Nearest-rank percentile of sorted values: the smallest value with at least
    /// `fraction` of all values at or below it. 0 for an empty sample.
    static func percentile(_ sorted: [UInt64], _ fraction: Double) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

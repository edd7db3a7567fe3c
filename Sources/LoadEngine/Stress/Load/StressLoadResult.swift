import Histogram

/// What the clients of a stress load did, merged.
public struct StressLoadResult: Sendable {
    /// The clients' counts, summed.
    public var tally = StressTally()
    /// Every latency, from the intended send time, in microseconds.
    public var latency = LatencyHistogram.make()
    /// Per use case, by name: the mix's use cases first, in its order, then the others in
    /// endpoint order.
    public var useCases: [(name: String, stats: StressUseCaseStats)] = []
    /// Replies that came after their request had timed out.
    public var late = 0
    /// Why clients stopped early (e.g. a socket failure), if any did.
    public var failures: [String] = []
    /// Seconds from the first intended send to the last reply.
    public var elapsedSeconds = 0.0
    /// Per instance: what was sent there and how it fared.
    public var instances: [StressTally] = []
    /// The schedule's origin on the monotonic clock.
    public var startNanoseconds: UInt64 = 0
    /// How the load threads connected.
    public var transport = StressTransport.libzmq
    /// What the clients were told, for the checks.
    var ledger = StressLedger()
    /// Writes whose outcome no client knows.
    var unknownWrites: [StressUnknownWrite] = []
}

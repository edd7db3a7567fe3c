/// What one use-case endpoint has answered since it was created: counts by outcome, the
/// requests in flight now and the latency distribution. A snapshot; see
/// `UseCaseEndpoint.statistics()`.
public struct UseCaseStatistics: Sendable, Hashable {
    /// Every request the endpoint answered, successfully or not, including those the transport
    /// answered itself (malformed, overloaded, unavailable, …).
    public var requests: Int
    /// The requests answered with an error, by wire error code (`"invalid_input"`,
    /// `"overloaded"`, `"malformed"`, …); codes never answered are absent.
    public var errors: [String: Int]
    /// Requests accepted and not yet answered.
    public var inFlight: Int
    /// Replies that could not be delivered: the peer had vanished (the ROUTER refused the
    /// routing id) or had stopped reading (its queue was full). The requests themselves ran.
    public var droppedReplies: Int
    /// Latency from receipt on the socket thread to the reply being queued, in microseconds.
    public var latencyMicros: LatencySummary
    /// The longest any request the use case ran had waited for its turn, from receipt on the
    /// socket thread to the start of the use case, in microseconds; 0 before the first. Requests
    /// refused before they ran (`overloaded`, `deadline_exceeded`, malformed…) are not counted:
    /// under the queue-time target this never exceeds the target.
    public var longestWaitMicros: Int
    /// Answered requests by caller name, then by outcome (`ok` or the error code); callers
    /// without an answer are absent. Without `--client-keys` the one caller is `anonymous`.
    public var callers: [String: [String: Int]]

    /// Creates statistics from their parts.
    public init(
        requests: Int, errors: [String: Int], inFlight: Int, droppedReplies: Int = 0, latencyMicros: LatencySummary, longestWaitMicros: Int = 0,
        callers: [String: [String: Int]] = [:]
    ) {
        self.requests = requests
        self.errors = errors
        self.inFlight = inFlight
        self.droppedReplies = droppedReplies
        self.latencyMicros = latencyMicros
        self.longestWaitMicros = longestWaitMicros
        self.callers = callers
    }

    /// The requests answered successfully: ``requests`` minus every error.
    public var succeeded: Int {
        requests - errors.values.reduce(0, +)
    }
}

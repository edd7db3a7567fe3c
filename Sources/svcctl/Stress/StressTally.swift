import Histogram

/// Running counts of a stress run (one client's, or all clients' summed).
struct StressTally: Sendable {
    /// Requests sent.
    var sent = 0
    /// Replies received (including late ones).
    var answered = 0
    /// `ok: true` replies.
    var ok = 0
    /// Refusals the workload provokes on purpose (cap, stock, taken email).
    var refused = 0
    /// `overloaded`, `unavailable`, `deadline_exceeded`: answered before any effect.
    var transient = 0
    /// Any other error: a valid request should never get one.
    var unexpected = 0
    /// Requests without an answer within the timeout (so far).
    var timedOut = 0
    /// Sends delayed because the client already had `--max-outstanding` requests waiting.
    var behind = 0
    /// Requests dropped before sending because the socket's queue was full.
    var unsent = 0
    /// Clients that moved to another instance because theirs stopped answering (for one
    /// instance's tally: the clients that moved away from it).
    var failovers = 0

    static func += (lhs: inout StressTally, rhs: StressTally) {
        lhs.sent += rhs.sent
        lhs.answered += rhs.answered
        lhs.ok += rhs.ok
        lhs.refused += rhs.refused
        lhs.transient += rhs.transient
        lhs.unexpected += rhs.unexpected
        lhs.timedOut += rhs.timedOut
        lhs.behind += rhs.behind
        lhs.unsent += rhs.unsent
        lhs.failovers += rhs.failovers
    }
}

/// The largest latency a histogram tracks: one hour (longer ones are recorded as one hour).
let latencyCeilingMicros: UInt64 = 3_600_000_000

/// A latency histogram in microseconds, 1 µs to ``latencyCeilingMicros``, three significant digits.
func makeLatencyHistogram() -> Histogram<UInt64> {
    Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: latencyCeilingMicros, numberOfSignificantValueDigits: .three)
}

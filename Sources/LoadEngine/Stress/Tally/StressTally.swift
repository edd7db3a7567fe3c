/// Running counts of a stress run (one client's, all clients' summed, or one instance's).
public struct StressTally: Sendable {
    /// Requests sent.
    public var sent = 0
    /// Replies received (including late ones).
    public var answered = 0
    /// `ok: true` replies.
    public var ok = 0
    /// Refusals the workload provokes on purpose (cap, stock, taken email).
    public var refused = 0
    /// `overloaded`, `unavailable`, `deadline_exceeded`: answered before any effect.
    public var transient = 0
    /// Any other error: a valid request should never get one.
    public var unexpected = 0
    /// Writes answered with an error carrying `"outcome": "unknown"` (the service could not
    /// confirm the commit, e.g. its database did not answer in time): like a timeout, the write
    /// may have taken effect, and it is resent with its key after the load.
    public var outcomeUnknown = 0
    /// Requests without an answer within the timeout (so far).
    public var timedOut = 0
    /// Sends delayed because the client already had its maximum of requests waiting.
    public var behind = 0
    /// Requests dropped before sending because the socket's queue was full.
    public var unsent = 0
    /// Clients that moved to another instance because theirs stopped answering (for one
    /// instance's tally: the clients that moved away from it).
    public var failovers = 0

    /// Nothing counted yet.
    public init() {}

    /// Adds `rhs`'s counts to `lhs`.
    public static func += (lhs: inout StressTally, rhs: StressTally) {
        lhs.sent += rhs.sent
        lhs.answered += rhs.answered
        lhs.ok += rhs.ok
        lhs.refused += rhs.refused
        lhs.transient += rhs.transient
        lhs.unexpected += rhs.unexpected
        lhs.outcomeUnknown += rhs.outcomeUnknown
        lhs.timedOut += rhs.timedOut
        lhs.behind += rhs.behind
        lhs.unsent += rhs.unsent
        lhs.failovers += rhs.failovers
    }
}

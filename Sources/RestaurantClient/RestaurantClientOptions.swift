/// Tuning of a ``RestaurantClient``.
public struct RestaurantClientOptions: Sendable, Hashable {
    /// How long one attempt waits for its reply (default 5 s). A call that is retried can take
    /// up to `(retries + 1) × timeout` plus the back-offs.
    public var timeout: Duration
    /// How many times a call is sent again (default 2): reads after a timeout, and any use case
    /// after an `overloaded`, `deadline_exceeded` or `unavailable` reply. Writes are never resent
    /// after a timeout.
    public var retries: Int
    /// The pause before the first resend (default 50 ms); doubled for each further one.
    public var backoff: Duration

    /// Creates options; the defaults are 5 s timeout, 2 retries, 50 ms initial back-off.
    public init(timeout: Duration = .seconds(5), retries: Int = 2, backoff: Duration = .milliseconds(50)) {
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = backoff
    }
}

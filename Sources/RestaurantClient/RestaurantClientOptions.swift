/// Tuning of a ``RestaurantClient``: the budget every call stays within.
///
/// **Attempts.** A call to a client of `n` instances sends its request at most
/// ``maxAttempts(instanceCount:)`` = `max(retries + 1, n)` times, so each instance of a cluster
/// gets a chance even with few retries. An attempt ends after at most ``timeout``.
///
/// **Pauses.** Going on to an instance this call has not tried yet is immediate. The k-th resend
/// (k = 1, 2, …) to an instance the call already tried first waits
/// `backoff × 2^min(k − 1, 10)`.
///
/// **Worst case.** A call therefore returns within ``worstCaseDuration(instanceCount:)`` =
/// `maxAttempts × timeout + Σ_{k=1}^{maxAttempts−1} backoff × 2^min(k − 1, 10)`, plus the time
/// the machine takes to schedule the client's thread, read `endpoints.json` files and open
/// sockets. With the defaults (5 s, 2 retries, 50 ms): 3 attempts and at most 15.15 s for one to
/// three instances.
///
/// **Cool-down.** An instance that timed out, could not be reached or answered `unavailable` is
/// skipped by every call of the client for ``coolDown``, doubled for each further consecutive
/// failure up to ``maxCoolDown``; any reply other than `unavailable` ends its cool-down. When
/// every instance is cooling down, calls still try them, the longest-failed first.
public struct RestaurantClientOptions: Sendable, Hashable {
    /// How long one attempt waits for its reply (default 5 s).
    public var timeout: Duration
    /// How many times a call may be sent again after its first attempt (default 2), for a
    /// timeout, an unreachable instance, an `overloaded`, `deadline_exceeded` or `unavailable`
    /// reply, or an error whose `outcome` is `unknown` to a keyed write. A client
    /// of `n` instances makes at least `n` attempts whatever this says.
    public var retries: Int
    /// The pause before the first resend to an instance the call already tried (default 50 ms);
    /// doubled for each further resend.
    public var backoff: Duration
    /// How long an instance that failed is skipped (default 1 s).
    public var coolDown: Duration
    /// The longest cool-down, reached by doubling ``coolDown`` per consecutive failure
    /// (default 16 s).
    public var maxCoolDown: Duration
    /// The client key pair for instances whose use-case endpoints are CURVE servers (svcd
    /// `--client-keys`; their `endpoints.json` has `useCaseServerKey`), unless an instance has
    /// its own (``SvcdInstance/keyed(_:clientKeys:)``). Plaintext instances ignore it.
    public var clientKeys: ClientKeys?

    /// Creates options; the defaults are 5 s timeout, 2 retries, 50 ms initial back-off, 1 s
    /// cool-down doubling up to 16 s. Negative values count as 0.
    public init(
        timeout: Duration = .seconds(5), retries: Int = 2, backoff: Duration = .milliseconds(50),
        coolDown: Duration = .seconds(1), maxCoolDown: Duration = .seconds(16)
    ) {
        self.timeout = max(.zero, timeout)
        self.retries = max(0, retries)
        self.backoff = max(.zero, backoff)
        self.coolDown = max(.zero, coolDown)
        self.maxCoolDown = max(self.coolDown, maxCoolDown)
    }

    /// The most attempts one call makes against `instanceCount` instances:
    /// `max(retries + 1, instanceCount)`.
    public func maxAttempts(instanceCount: Int) -> Int {
        max(retries + 1, instanceCount, 1)
    }

    /// The pause before the `resend`-th resend (1-based) when it goes to an instance the call
    /// already tried: `backoff × 2^min(resend − 1, 10)`.
    public func backoff(beforeResend resend: Int) -> Duration {
        backoff * (1 << min(max(resend - 1, 0), 10))
    }

    /// The longest a call against `instanceCount` instances can wait for replies and pauses:
    /// every attempt timing out, every resend paused. Scheduling, file reads and socket set-up
    /// come on top.
    public func worstCaseDuration(instanceCount: Int) -> Duration {
        let attempts = maxAttempts(instanceCount: instanceCount)
        var total = timeout * attempts
        for resend in stride(from: 1, to: attempts, by: 1) {
            total += backoff(beforeResend: resend)
        }
        return total
    }
}

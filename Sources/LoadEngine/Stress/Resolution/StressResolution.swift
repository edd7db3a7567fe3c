/// What became of the load's writes of unknown outcome: how many there were, how many were sent
/// again with their idempotency keys, and what the answers settled.
public struct StressResolution: Sendable {
    /// Whether unknown outcomes were resolved at all (`--no-resolve` turns it off).
    public internal(set) var enabled: Bool
    /// Whether svcd binds idempotency keys (see ``SharedStoreProbe``): only then does a resend's
    /// answer tell the original's outcome.
    public internal(set) var keysHonoured: Bool
    /// Writes without a known outcome after the load.
    public internal(set) var unknownAfterLoad = 0
    /// Writes sent again with their keys.
    public internal(set) var resent = 0
    /// Keys bound: the write took effect (before, or with the resend).
    public internal(set) var tookEffect = 0
    /// Refused: the write took no effect.
    public internal(set) var noEffect = 0
    /// Writes whose outcome is still unknown (no answer to the resend either, or keys not bound).
    public internal(set) var stillUnknown = 0
    /// Keys not bound: resends svcd executed as new writes, answered `ok`.
    public internal(set) var newWritesAcknowledged = 0
    /// Keys not bound: resends svcd executed as new writes and refused.
    public internal(set) var newWritesRefused = 0
    /// Resends answered with an error a valid request should never get.
    public internal(set) var unexpectedErrors = 0

    /// Unknown outcomes made known.
    public var resolved: Int { tookEffect + noEffect }
}

import WireJSON

/// What became of the load's writes of unknown outcome: how many there were, how many were sent
/// again with their idempotency keys, and what the answers settled.
struct StressResolution: Sendable {
    /// Whether unknown outcomes were resolved at all (`--no-resolve` turns it off).
    var enabled: Bool
    /// Whether svcd binds idempotency keys (see ``SharedStoreProbe``): only then does a resend's
    /// answer tell the original's outcome.
    var keysHonoured: Bool
    /// Writes without a known outcome after the load.
    var unknownAfterLoad = 0
    /// Writes sent again with their keys.
    var resent = 0
    /// Keys bound: the write took effect (before, or with the resend).
    var tookEffect = 0
    /// Refused: the write took no effect.
    var noEffect = 0
    /// Writes whose outcome is still unknown (no answer to the resend either, or keys not bound).
    var stillUnknown = 0
    /// Keys not bound: resends svcd executed as new writes, answered `ok`.
    var newWritesAcknowledged = 0
    /// Keys not bound: resends svcd executed as new writes and refused.
    var newWritesRefused = 0
    /// Resends answered with an error a valid request should never get.
    var unexpectedErrors = 0

    /// Unknown outcomes made known.
    var resolved: Int { tookEffect + noEffect }

    /// The summary as JSON.
    var json: JSONValue {
        .object(JSONObject([
            ("enabled", .bool(enabled)), ("idempotencyKeysHonoured", .bool(keysHonoured)),
            ("unknownAfterLoad", .int(unknownAfterLoad)), ("resent", .int(resent)), ("resolved", .int(resolved)),
            ("tookEffect", .int(tookEffect)), ("noEffect", .int(noEffect)), ("stillUnknown", .int(stillUnknown)),
            ("newWritesAcknowledged", .int(newWritesAcknowledged)), ("newWritesRefused", .int(newWritesRefused)),
            ("unexpectedErrors", .int(unexpectedErrors)),
        ]))
    }

    /// One line for people.
    var text: String {
        guard unknownAfterLoad > 0 else { return "none: every write of the load was answered" }
        guard enabled else { return "\(unknownAfterLoad) writes, not resolved (--no-resolve): they stay unknown" }
        var text = "\(unknownAfterLoad) writes; resent \(resent) with their idempotency keys; "
        if keysHonoured {
            text += "resolved \(resolved) (\(tookEffect) took effect, \(noEffect) did not), \(stillUnknown) still unknown"
        } else {
            text += "resolved 0: svcd does not bind idempotency keys, so each resend was a new write "
                + "(\(newWritesAcknowledged) acknowledged, \(newWritesRefused) refused) and the originals stay unknown"
        }
        if unexpectedErrors > 0 { text += "; \(unexpectedErrors) unexpected errors" }
        return text
    }
}

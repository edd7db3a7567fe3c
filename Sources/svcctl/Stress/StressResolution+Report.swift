import LoadEngine
import WireJSON

extension StressResolution {
    /// The report's `unknownOutcomes` object.
    var json: JSONValue {
        .object(JSONObject([
            ("enabled", .bool(enabled)), ("idempotencyKeysHonoured", .bool(keysHonoured)),
            ("unknownAfterLoad", .int(unknownAfterLoad)), ("resent", .int(resent)), ("resolved", .int(resolved)),
            ("tookEffect", .int(tookEffect)), ("noEffect", .int(noEffect)), ("stillUnknown", .int(stillUnknown)),
            ("newWritesAcknowledged", .int(newWritesAcknowledged)), ("newWritesRefused", .int(newWritesRefused)),
            ("unexpectedErrors", .int(unexpectedErrors)),
        ]))
    }

    /// The report's `unknown outcomes` line.
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

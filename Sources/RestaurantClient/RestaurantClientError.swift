import WireContract

/// Everything a ``RestaurantClient`` call can fail with.
///
/// A write that failed with ``timeout`` or with an error whose ``wireOutcome`` is
/// ``WireErrorOutcome/unknown`` may have taken effect (once: its attempts shared one idempotency
/// key); every other failure had no effect. When a call's attempts run out after one of those, it
/// fails with that one, not with a later transient refusal.
public enum RestaurantClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// svcd answered `ok: false`. `code` is the wire code (`"not_found"`, …; see ``wireCode``),
    /// `message` the plain-English explanation (for people and logs; branch on `code`),
    /// `outcome` the error's outcome when it has one (`"unknown"`: a write whose commit outcome
    /// is unknown; see ``wireOutcome``). Without an outcome the call had no effect.
    case service(code: String, message: String, outcome: String?)
    /// No reply arrived within the timeout, after any automatic retries.
    case timeout
    /// The service cannot be reached: no endpoints file, no address for the use case, or the
    /// address/socket could not be set up.
    case unavailable(String)
    /// The client refused the call or its own construction before sending anything: no
    /// instance given, or a caller's idempotency key that is not 1 to 128 characters.
    case invalidArgument(String)
    /// A reply arrived but is not what the protocol promises (not JSON, wrong shape, wrong id).
    case malformedReply(String)
    /// The event log answered `gone`: it no longer keeps the events asked for; the oldest it
    /// keeps is `firstSeq` (`message` says so for people).
    case gone(firstSeq: Int64, message: String)

    /// The typed wire code of a ``service(code:message:)`` or ``gone(firstSeq:message:)``
    /// error; `nil` for the other cases and for a code this client version does not know.
    public var wireCode: WireErrorCode? {
        switch self {
        case .service(let code, _, _): WireErrorCode(rawValue: code)
        case .gone: .gone
        default: nil
        }
    }

    /// The typed outcome of a ``service(code:message:outcome:)`` error: ``WireErrorOutcome/unknown``
    /// when the call was a write that may have taken effect; `nil` when it had no effect (and for
    /// the other cases, and a value this client version does not know).
    public var wireOutcome: WireErrorOutcome? {
        guard case .service(_, _, let outcome?) = self else { return nil }
        return WireErrorOutcome(rawValue: outcome)
    }

    /// Of a ``gone(firstSeq:message:)`` error: the oldest seq the event log keeps.
    public var firstSeq: Int64? {
        if case .gone(let firstSeq, _) = self { return firstSeq }
        return nil
    }

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .service(let code, let message, let outcome):
            "service error \(code)\(outcome.map { " (outcome \($0))" } ?? ""): \(message)"
        case .timeout: "no reply within the timeout"
        case .unavailable(let reason): "service unavailable: \(reason)"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        case .malformedReply(let reason): "malformed reply: \(reason)"
        case .gone(let firstSeq, let message): "service error gone (the oldest event kept is seq \(firstSeq)): \(message)"
        }
    }
}

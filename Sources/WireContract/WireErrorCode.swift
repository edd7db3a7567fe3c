/// The error codes of wire protocol v1 (`error.code` of a failure reply).
public enum WireErrorCode: String, Sendable, Hashable, CaseIterable {
    /// Not JSON, not an object, no `v`, `params` not an object, empty or extra frames, invalid UTF-8.
    case malformed
    /// `v` is a number other than 1.
    case unsupportedVersion = "unsupported_version"
    /// A parameter is missing, of the wrong type or out of range; the message names it.
    case invalidInput = "invalid_input"
    /// The addressed entity does not exist.
    case notFound = "not_found"
    /// The caller may not do this (e.g. an inactive user).
    case unauthorized
    /// A business rule refused the request.
    case businessRule = "business_rule"
    /// A uniqueness rule refused the request.
    case conflict
    /// Too many requests in flight; nothing was done, retry later.
    case overloaded
    /// The request's deadline passed before it started; nothing was done.
    case deadlineExceeded = "deadline_exceeded"
    /// The service is draining or stopping; nothing was done.
    case unavailable
    /// A failure inside the service. It had no effect unless the error's `outcome` is
    /// ``WireErrorOutcome/unknown`` (a write whose commit outcome is unknown).
    case `internal`
    /// The event log no longer keeps the events asked for (they were pruned); the error's
    /// `firstSeq` is the oldest it keeps. Only the event log answers it.
    case gone

    /// Whether the contract guarantees the request had no effect, so it may be sent again
    /// unchanged (`overloaded`, `deadline_exceeded`, `unavailable`).
    public var isSafeToResend: Bool {
        switch self {
        case .overloaded, .deadlineExceeded, .unavailable: true
        default: false
        }
    }
}

extension WireErrorCode: CustomStringConvertible {
    /// The wire code: a message that names an error code names it as the contract does
    /// (`invalid_input`, not the Swift case `invalidInput`).
    public var description: String { rawValue }
}

/// `error.outcome` of a failure reply: present only when the request may have taken effect.
/// Every failure reply without it had no effect. Clients decide from `code` and `outcome`, never
/// from `message`.
public enum WireErrorOutcome: String, Sendable, Hashable, CaseIterable {
    /// The request was a write whose commit outcome is unknown (the code is `internal`): it took
    /// effect once or not at all. Resend it only with the same `idempotencyKey`.
    case unknown
}

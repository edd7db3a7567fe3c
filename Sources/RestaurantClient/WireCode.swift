/// The error codes of wire protocol v1 (`error.code` in a failure reply).
public enum WireCode: Sendable, Hashable {
    /// `malformed`: the message was not a valid request.
    case malformed
    /// `unsupported_version`: `v` was a number other than 1.
    case unsupportedVersion
    /// `invalid_input`: a parameter was missing, mistyped or out of range.
    case invalidInput
    /// `not_found`: an entity named by an id does not exist.
    case notFound
    /// `unauthorized`: the `userId` names an inactive user.
    case unauthorized
    /// `business_rule`: a domain rule refused the request.
    case businessRule
    /// `conflict`: a uniqueness rule (e-mail) refused the request.
    case conflict
    /// `overloaded`: too many requests in flight; safe to resend.
    case overloaded
    /// `deadline_exceeded`: the request's deadline passed before it started; safe to resend.
    case deadlineExceeded
    /// `unavailable`: the service is draining or shutting down; safe to resend.
    case unavailable
    /// `internal`: an unexpected failure inside svcd; the request may or may not have had effect.
    case `internal`
    /// A code this client version does not know.
    case unknown(String)

    /// Maps a wire string (e.g. `"not_found"`) to its case.
    public init(_ code: String) {
        switch code {
        case "malformed": self = .malformed
        case "unsupported_version": self = .unsupportedVersion
        case "invalid_input": self = .invalidInput
        case "not_found": self = .notFound
        case "unauthorized": self = .unauthorized
        case "business_rule": self = .businessRule
        case "conflict": self = .conflict
        case "overloaded": self = .overloaded
        case "deadline_exceeded": self = .deadlineExceeded
        case "unavailable": self = .unavailable
        case "internal": self = .internal
        default: self = .unknown(code)
        }
    }

    /// The code as sent on the wire.
    public var rawValue: String {
        switch self {
        case .malformed: "malformed"
        case .unsupportedVersion: "unsupported_version"
        case .invalidInput: "invalid_input"
        case .notFound: "not_found"
        case .unauthorized: "unauthorized"
        case .businessRule: "business_rule"
        case .conflict: "conflict"
        case .overloaded: "overloaded"
        case .deadlineExceeded: "deadline_exceeded"
        case .unavailable: "unavailable"
        case .internal: "internal"
        case .unknown(let code): code
        }
    }

    /// Whether the contract guarantees the request had no effect, so it may be sent again
    /// unchanged (`overloaded`, `deadline_exceeded`, `unavailable`).
    public var isSafeToResend: Bool {
        switch self {
        case .overloaded, .deadlineExceeded, .unavailable: true
        default: false
        }
    }
}

import Domain
import WireContract

/// An error reply: a wire code, a plain-words message, and what the request's effect may have
/// been when it is not "none".
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public let code: WireErrorCode
    /// What went wrong, in plain words; names the field for `invalid_input`.
    public let message: String
    /// For `gone`: the oldest seq the event log keeps, sent as the error's `firstSeq` so a client
    /// knows where the log resumes without reading the message.
    public let firstSeq: Int64?
    /// Sent as the error's `outcome` when the request may have taken effect (a write whose commit
    /// outcome is unknown); `nil`, the member left out, when it had none.
    public let outcome: WireErrorOutcome?

    /// Creates an error reply.
    public init(_ code: WireErrorCode, _ message: String, firstSeq: Int64? = nil, outcome: WireErrorOutcome? = nil) {
        self.code = code
        self.message = message
        self.firstSeq = firstSeq
        self.outcome = outcome
    }

    /// "code: message".
    public var description: String { "\(code.rawValue): \(message)" }

    /// The one place where errors become wire codes: domain errors by kind; wire errors as they
    /// are; an unreachable store, or one whose storage is full, is `unavailable` (nothing happened) and a write whose commit
    /// outcome is unknown is `internal` with the outcome ``WireErrorOutcome/unknown``; anything
    /// else is `internal` (its details are logged, not sent).
    public init(mapping error: any Error) {
        switch error {
        case let wire as WireError:
            self = wire
        case let domain as DomainError:
            switch domain {
            case .invalidInput: self.init(.invalidInput, domain.description)
            case .notFound: self.init(.notFound, domain.description)
            case .unauthorized: self.init(.unauthorized, domain.description)
            case .businessRule: self.init(.businessRule, domain.description)
            case .conflict: self.init(.conflict, domain.description)
            case .gone(let first): self.init(.gone, domain.description, firstSeq: first)
            }
        case let failure as RepositoryFailure:
            switch failure {
            case .unavailable:
                self.init(.unavailable, "the database cannot be reached; the request had no effect, send it again later")
            case .busy(let reason):
                self.init(.overloaded, "the service is too busy to take this request now (\(reason)); it had no effect, send it again after a pause")
            case .storageFull:
                self.init(.unavailable, "storage is full: the service cannot write; the request had no effect, send it again once space is freed")
            case .outcomeUnknown:
                self.init(
                    .internal, "the connection to the database was lost while the write was being committed, so its outcome is unknown; retrying with the same idempotencyKey is safe",
                    outcome: .unknown
                )
            }
        default:
            self.init(.internal, "internal error")
        }
    }

    /// Whether this error came from a failure inside the service rather than from the request.
    public var isInternal: Bool { code == .internal }
}

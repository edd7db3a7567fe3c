/// Why a repository could not do what it was asked, when the reason is the store rather than the
/// request. Repositories throw these so that callers can tell their own clients what happened;
/// every other repository error is an internal failure.
public enum RepositoryFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store cannot be reached or did not answer in time; nothing was written, so the
    /// request may be sent again.
    case unavailable(reason: String)
    /// The store was asked to commit a write but the answer was lost (the connection died):
    /// the write may or may not have happened. Retrying with the same idempotency key is safe.
    case outcomeUnknown(reason: String)

    /// A plain-words explanation.
    public var description: String {
        switch self {
        case .unavailable(let reason): "the store is unavailable: \(reason)"
        case .outcomeUnknown(let reason): "the outcome of the write is unknown: \(reason)"
        }
    }
}

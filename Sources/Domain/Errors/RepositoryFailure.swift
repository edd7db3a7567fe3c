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
    /// The store answers but is too busy: the operation waited longer than the queue-time target
    /// for its turn (a group commit, a pooled connection) and was given up before it ran;
    /// nothing was written, so the request may be sent again after a pause.
    case busy(reason: String)
    /// The store's disk (or database) is full: nothing was written, and the write may be sent
    /// again once space is freed. Reads go on.
    case storageFull(reason: String)

    /// A plain-words explanation.
    public var description: String {
        switch self {
        case .unavailable(let reason): "the store is unavailable: \(reason)"
        case .outcomeUnknown(let reason): "the outcome of the write is unknown: \(reason)"
        case .busy(let reason): "the store is busy: \(reason)"
        case .storageFull(let reason): "the store's storage is full: \(reason)"
        }
    }
}

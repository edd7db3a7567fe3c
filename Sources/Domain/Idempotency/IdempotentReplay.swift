/// Thrown instead of a result when a write request's idempotency key is bound to this same
/// request already: the request took effect before and nothing was done now. Not a failure: the
/// caller answers with ``recordedResult``, the result recorded when the key was bound.
public struct IdempotentReplay: Error, Sendable, Hashable {
    /// The bound result, as ``IdempotencyClaim`` encoded it.
    public let recordedResult: [UInt8]

    /// A replay of `recordedResult`.
    public init(recordedResult: [UInt8]) {
        self.recordedResult = recordedResult
    }
}

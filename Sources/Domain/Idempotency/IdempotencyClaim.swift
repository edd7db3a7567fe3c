/// A write request's claim on an idempotency key.
///
/// The key is bound to the first request that succeeds with it: the store records the binding
/// (the request and the write's result) in the same atomic step as the write, so however often
/// and wherever the request is repeated, the write happens once. A request whose key is bound
/// already is answered from the binding (``answer(toBound:)``) and changes nothing. Refusals
/// bind nothing, so a refused request may be retried with the same key.
public struct IdempotencyClaim: Sendable {
    /// Accepted key lengths, in characters.
    public static let keyLengths = 1...128
    /// How long a binding is kept at least: 24 hours.
    public static let retentionMilliseconds: Int64 = 24 * 3_600_000

    /// The caller's key.
    public let key: String
    /// The request the key is bound to, as text that is equal for equal requests (the caller
    /// chooses the form, e.g. the use case and its canonical parameters); compared exactly.
    public let request: String
    private let encodeResult: @Sendable (WriteResult) -> [UInt8]

    /// A claim on `key` for `request`; `encodeResult` turns the write's result into the bytes
    /// recorded with the binding, which a repeated request is answered with.
    public init(key: String, request: String, encodeResult: @escaping @Sendable (WriteResult) -> [UInt8]) {
        self.key = key
        self.request = request
        self.encodeResult = encodeResult
    }

    /// The binding a store records, in the write's own atomic step, for a write that succeeded
    /// with `result`.
    public func binding(for result: WriteResult) -> IdempotencyBinding {
        IdempotencyBinding(request: request, recordedResult: encodeResult(result))
    }

    /// The answer to this request when its key is bound already: the recorded result
    /// (``IdempotentReplay``) when the key is bound to this same request, [conflict] when it is
    /// bound to another one. Either way nothing is written.
    public func answer(toBound binding: IdempotencyBinding) -> any Error {
        guard binding.request == request else {
            return DomainError.conflict(reason: "idempotencyKey \"\(key)\" is already bound to another request (another use case or other params); use a new key")
        }
        return IdempotentReplay(recordedResult: binding.recordedResult)
    }
}

/// An idempotency key's binding as stored: the request it was first used with and the result
/// recorded when that request's write succeeded.
public struct IdempotencyBinding: Sendable, Hashable {
    /// ``IdempotencyClaim/request`` of the request that bound the key.
    public let request: String
    /// The bytes the claim encoded from the write's result.
    public let recordedResult: [UInt8]

    /// A binding as read back from a store.
    public init(request: String, recordedResult: [UInt8]) {
        self.request = request
        self.recordedResult = recordedResult
    }
}

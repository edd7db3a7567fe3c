/// Stores idempotency keys' bindings. Each write repository records a binding in the same atomic
/// step as its write (see ``IdempotencyClaim``); this protocol reads them back and forgets old
/// ones.
public protocol IdempotencyRepository: Sendable {
    /// The binding of `key`, or `nil` when the key is not bound.
    func binding(forKey key: String) async throws -> IdempotencyBinding?
    /// Forgets the bindings made before `cutoff`; returns how many.
    func removeBindings(madeBefore cutoff: Timestamp) async throws -> Int
}

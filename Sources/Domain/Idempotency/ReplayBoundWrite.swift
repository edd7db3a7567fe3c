/// Answers a write request whose idempotency key is bound already, before the write's use case
/// runs: a repeated request gets the recorded result even when what the use case would check
/// first has changed since (e.g. the user was deactivated), and has no effect.
///
/// A key that is not bound yet is claimed by the write itself, in its own atomic step, so two
/// requests racing with one key still take effect once (see ``IdempotencyClaim``).
public struct ReplayBoundWrite: Sendable {
    private let bindings: any IdempotencyRepository

    /// Creates the use case.
    public init(bindings: any IdempotencyRepository) {
        self.bindings = bindings
    }

    /// Returns when `claim`'s key is not bound. Throws ``IdempotentReplay`` when it is bound to
    /// this same request, [conflict] when it is bound to another.
    public func execute(_ claim: IdempotencyClaim) async throws {
        if let binding = try await bindings.binding(forKey: claim.key) {
            throw claim.answer(toBound: binding)
        }
    }
}

import Domain
import Logging

/// Forgets idempotency keys' bindings once they are older than the contract's retention (24
/// hours): at start and then every `interval`, so a binding lives between 24 hours and 24 hours
/// plus `interval`. Several instances on one database each prune; deleting the same old rows
/// twice is harmless.
struct IdempotencyKeyPruner: Pruner {
    let bindings: any IdempotencyRepository
    let clock: any WallClock
    let interval: Duration
    let logger: Logger

    /// Removes the bindings older than the retention; failures are logged and retried next time.
    func prune() async {
        let cutoff = clock.now().adding(milliseconds: -IdempotencyClaim.retentionMilliseconds)
        do {
            let removed = try await bindings.removeBindings(madeBefore: cutoff)
            if removed > 0 {
                logger.info("forgot old idempotency keys", metadata: ["removed": "\(removed)"])
            }
        } catch {
            logger.warning("could not forget old idempotency keys; retrying later", metadata: ["error": "\(error)"])
        }
    }
}

import Domain
import Logging

/// Prunes the event log: at start and then every `interval`, forgets the oldest events written
/// more than `retention` ago (never leaving a hole: see ``EventRepository/removeEvents(writtenBefore:)``),
/// so an event is kept between `retention` and `retention` plus `interval`. Several instances on
/// one database each prune; deleting the same old rows twice is harmless.
struct EventLogPruner: Pruner {
    let events: any EventRepository
    let clock: any WallClock
    /// How long events are kept at least.
    let retention: Duration
    let interval: Duration
    let logger: Logger

    /// Removes the events older than the retention; failures are logged and retried next time.
    func prune() async {
        let (seconds, _) = retention.components
        let cutoff = clock.now().adding(milliseconds: -seconds * 1000)
        do {
            let removed = try await events.removeEvents(writtenBefore: cutoff)
            if removed > 0 {
                logger.info("pruned the event log", metadata: ["removed": "\(removed)", "writtenBefore": "\(cutoff)"])
            }
        } catch {
            logger.warning("could not prune the event log; retrying later", metadata: ["error": "\(error)"])
        }
    }
}

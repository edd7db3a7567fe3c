import Domain
import Logging
import ServiceLifecycle

/// Prunes the event log: at start and then every `interval`, forgets the oldest events written
/// more than `retention` ago (never leaving a hole: see ``EventRepository/removeEvents(writtenBefore:)``),
/// so an event is kept between `retention` and `retention` plus `interval`. Several instances on
/// one database each prune; deleting the same old rows twice is harmless.
struct EventLogPruner: Service {
    let events: any EventRepository
    let clock: any WallClock
    /// How long events are kept at least.
    let retention: Duration
    let interval: Duration
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await prune()
                try? await Task.sleep(for: interval)
            }
        }
    }

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

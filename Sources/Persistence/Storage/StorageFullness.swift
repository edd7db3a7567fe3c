import Domain
import Logging
import Metrics
import Synchronization

/// Whether a store's storage is full, as its writes find out: set when a write fails because the
/// disk (or the database) has no space left, cleared by the next write that commits. Refused
/// writes are counted (`svc_store_writes_refused_full_total`) and logged at most once per
/// ``logInterval`` with the number refused since the last line, never once per request.
public final class StorageFullness: Sendable {
    /// The longest a refusal goes unlogged while writes keep being refused.
    public static let logInterval: Duration = .seconds(5)

    private struct LogState {
        var lastLogged: ContinuousClock.Instant?
        var unlogged = 0
    }

    // Read by every committed write: an atomic flag, not the lock.
    private let full = Atomic(false)
    private let logState = Mutex(LogState())
    private let logger: Logger
    private let refusals: Counter
    private let place: String

    /// A tracker for the store `place` names (its path or database URL), logging to `logger`.
    public init(place: String, logger: Logger, metrics: any MetricsFactory) {
        self.place = place
        self.logger = logger
        refusals = Counter(label: "svc_store_writes_refused_full_total", factory: metrics)
    }

    /// Whether the last write found the storage full (and none has committed since).
    public var isFull: Bool {
        full.load(ordering: .relaxed)
    }

    /// Records a write refused for lack of space (`cause`, the store's own error) and returns
    /// what its caller is told.
    func refused(_ cause: any Error) -> RepositoryFailure {
        refused("\(cause)")
    }

    /// Records a write refused for lack of space, `cause` saying how the store said so.
    func refused(_ cause: String) -> RepositoryFailure {
        refusals.increment()
        let now = ContinuousClock.now
        full.store(true, ordering: .relaxed)
        let logLine: Int? = logState.withLock { state in
            state.unlogged += 1
            if let last = state.lastLogged, now - last < Self.logInterval { return nil }
            state.lastLogged = now
            defer { state.unlogged = 0 }
            return state.unlogged
        }
        if let refused = logLine {
            logger.warning("storage is full; writes are answered unavailable until space is freed", metadata: [
                "store": "\(place)", "refusedSinceLastLine": "\(refused)", "error": "\(cause)",
            ])
        }
        return .storageFull(reason: cause)
    }

    /// Records a committed write: the storage has room again.
    func wrote() {
        guard full.load(ordering: .relaxed), full.exchange(false, ordering: .relaxed) else { return }
        logState.withLock { $0 = LogState() }
        logger.notice("storage has room again; writes succeed", metadata: ["store": "\(place)"])
    }
}

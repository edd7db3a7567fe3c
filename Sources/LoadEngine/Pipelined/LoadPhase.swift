import Synchronization

/// Where a load run is, set by the task that times it and read by its client threads at every
/// reply (``PipelinedSchedule/phased(_:)``): warming up, measuring (replies count), stopping
/// (no more requests are sent).
public final class LoadPhase: Sendable {
    /// The phases, in the order they come.
    public enum Stage: Int, Sendable {
        /// Requests flow; replies do not count yet.
        case warmingUp
        /// Replies count.
        case measuring
        /// No more requests; the clients wait for what is in flight and end.
        case stopping
    }

    private let value = Atomic<Int>(Stage.warmingUp.rawValue)

    /// A run warming up.
    public init() {}

    /// The phase now.
    public var stage: Stage {
        Stage(rawValue: value.load(ordering: .relaxed)) ?? .stopping
    }

    /// Moves the run to `stage`.
    public func enter(_ stage: Stage) {
        value.store(stage.rawValue, ordering: .sequentiallyConsistent)
    }
}

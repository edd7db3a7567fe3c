import Synchronization

/// Where the client threads leave their outcomes for the main thread.
final class OutcomeSlots: Sendable {
    private let slots: Mutex<[StressClientOutcome?]>

    init(count: Int) {
        slots = Mutex([StressClientOutcome?](repeating: nil, count: count))
    }

    func store(_ outcome: StressClientOutcome, at index: Int) {
        slots.withLock { $0[index] = outcome }
    }

    /// Every stored outcome.
    func all() -> [StressClientOutcome] {
        slots.withLock { $0.compactMap { $0 } }
    }
}

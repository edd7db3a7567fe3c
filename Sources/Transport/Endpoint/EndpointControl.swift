import Synchronization

/// Stop requests from the Swift side to an endpoint's socket thread.
final class EndpointControl: Sendable {
    /// What the socket thread should do.
    enum State: UInt8, AtomicRepresentable {
        /// Serve normally.
        case running
        /// Refuse new requests with `unavailable`, answer those in flight, then close.
        case stopping
        /// Close now; requests in flight are abandoned (used when the serving side is gone).
        case aborting
    }

    private let current = Atomic<State>(.running)

    /// The requested state.
    var state: State { current.load(ordering: .acquiring) }

    /// Requests a state; a later, stronger request wins (running < stopping < aborting).
    func request(_ state: State) {
        var observed = current.load(ordering: .relaxed)
        while observed.rawValue < state.rawValue {
            let (exchanged, original) = current.compareExchange(expected: observed, desired: state, ordering: .acquiringAndReleasing)
            if exchanged { return }
            observed = original
        }
    }
}

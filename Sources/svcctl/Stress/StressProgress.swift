import Histogram
import Synchronization

/// What the clients report while they run, for the live progress line: each client publishes
/// the counts and latencies since its last report about twice a second.
final class StressProgress: Sendable {
    private struct State {
        var tally = StressTally()
        var inFlight: [Int]
        var recent = makeLatencyHistogram()
    }

    private let state: Mutex<State>

    init(clients: Int) {
        state = Mutex(State(inFlight: [Int](repeating: 0, count: clients)))
    }

    /// Adds a client's counts and latencies since its last report.
    func publish(client: Int, delta: StressTally, inFlight: Int, latencies: Histogram<UInt64>) {
        state.withLock { state in
            state.tally += delta
            state.inFlight[client] = inFlight
            state.recent.add(latencies)
        }
    }

    /// The totals so far, the requests waiting for replies now, and the latencies recorded since
    /// the previous call (which starts a new interval).
    func snapshot() -> (tally: StressTally, inFlight: Int, recent: Histogram<UInt64>) {
        state.withLock { state in
            let recent = state.recent
            state.recent.reset()
            return (state.tally, state.inFlight.reduce(0, +), recent)
        }
    }
}

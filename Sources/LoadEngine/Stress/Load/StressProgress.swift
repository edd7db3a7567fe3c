import Histogram
import Synchronization
import WireContract

/// What the load threads report while they run: each publishes its clients' counts and latency
/// samples about four times a second. The latency histograms (per use case, and the last
/// interval's for the live progress line) exist once here rather than per thread.
final class StressProgress: Sendable {
    private struct State {
        var tally = StressTally()
        var inFlight: [Int]
        var recent = LatencyHistogram.make()
        var byUseCase = UseCaseTable<Histogram<UInt64>>()
    }

    private let state: Mutex<State>

    init(threads: Int) {
        state = Mutex(State(inFlight: [Int](repeating: 0, count: threads)))
    }

    /// Adds a thread's counts and latencies since its last report.
    func publish(thread: Int, delta: StressTally, inFlight: Int, samples: [LatencySample]) {
        state.withLock { state in
            state.tally += delta
            state.inFlight[thread] = inFlight
            for sample in samples {
                let micros = min(sample.micros, LatencyHistogram.ceilingMicros)
                _ = state.recent.record(micros)
                state.byUseCase.update(at: sample.useCaseIndex, makingIt: LatencyHistogram.make) { _ = $0.record(micros) }
            }
        }
    }

    /// The totals so far, the requests waiting for replies now, and the latencies recorded since
    /// the previous call (which starts a new interval), `elapsedSeconds` after the start.
    func snapshot(elapsedSeconds: Double) -> StressProgressSnapshot {
        state.withLock { state in
            let recent = state.recent
            state.recent.reset()
            return StressProgressSnapshot(elapsedSeconds: elapsedSeconds, tally: state.tally, inFlight: state.inFlight.reduce(0, +), recent: recent)
        }
    }

    /// Every latency recorded, per use case.
    func latencies() -> [UseCaseName: Histogram<UInt64>] {
        state.withLock { $0.byUseCase.byName }
    }
}

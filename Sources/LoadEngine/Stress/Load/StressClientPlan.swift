import WireContract
import ZeroMQ

/// What a client thread needs: where to send, what, how fast and for how long.
struct StressClientPlan: Sendable {
    let index: Int
    let context: ZMQContext
    /// The instances, and which of them are down.
    let cluster: LoadCluster
    /// Use-case addresses of each instance (`nil` for one not running at the start).
    let addresses: [[UseCaseName: String]?]
    let fixture: StressFixture
    let mix: StressMix
    let seed: UInt64
    /// The schedule's origin and end on the monotonic clock.
    let startNanoseconds: UInt64
    let endNanoseconds: UInt64
    /// Nanoseconds between this client's intended sends, and its first send's offset.
    let intervalNanoseconds: Double
    let phaseNanoseconds: Double
    let maxOutstanding: Int
    let timeoutNanoseconds: UInt64
    /// The start of every idempotency key of this run (unique per run).
    let keyPrefix: String
}

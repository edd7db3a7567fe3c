/// One reply's latency, from the intended send time.
struct LatencySample: Sendable {
    /// The use case it went to, by its ``StressRequest/useCaseIndex``.
    let useCaseIndex: Int
    /// Microseconds.
    let micros: UInt64
}

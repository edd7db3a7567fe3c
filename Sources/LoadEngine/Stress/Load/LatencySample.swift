import WireContract

/// One reply's latency, from the intended send time.
struct LatencySample: Sendable {
    /// The use case it went to.
    let useCase: UseCaseName
    /// Microseconds.
    let micros: UInt64
}

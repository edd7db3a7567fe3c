/// What a stress run found: the load, the verdict on every invariant, and what became of the
/// writes of unknown outcome.
public struct StressOutcome: Sendable {
    /// The load's figures.
    public let load: StressLoadResult
    /// The invariants, in report order.
    public let invariants: [InvariantResult]
    /// The writes of unknown outcome.
    public let resolution: StressResolution
    /// What the shared-store probe found about each instance's idempotency keys (`nil`: not
    /// asked, e.g. down).
    public let keyFindings: [String?]
    /// Each instance's down mark, `nil` for those never taken to be down.
    public let downMarks: [LoadCluster.DownMark?]
}

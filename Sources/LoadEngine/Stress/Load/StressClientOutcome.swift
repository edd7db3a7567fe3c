import WireContract

/// Everything one stress client brings back.
struct StressClientOutcome: Sendable {
    var ledger = StressLedger()
    var useCases: [UseCaseName: StressUseCaseStats] = [:]
    /// Replies that came after their request had timed out.
    var late = 0
    /// Why the client stopped early, if it did.
    var failure: String?
    /// Per instance: what this client sent there and how it fared; `failovers` counts the moves
    /// away from it.
    var instances: [StressTally]
    /// Writes whose outcome this client does not know, for the resolution after the load.
    var unknownWrites: [StressUnknownWrite] = []

    init(instanceCount: Int) {
        instances = [StressTally](repeating: StressTally(), count: instanceCount)
    }
}

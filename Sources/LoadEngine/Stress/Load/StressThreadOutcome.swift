import WireContract

/// Everything one load thread brings back, for all of its clients.
struct StressThreadOutcome: Sendable {
    var ledger = StressLedger()
    var useCases: [UseCaseName: StressUseCaseStats] = [:]
    /// Replies that came after their request had timed out.
    var late = 0
    /// Why the thread stopped early, if it did.
    var failure: String?
    /// Per instance: what the thread's clients sent there and how it fared; `failovers` counts
    /// the clients' moves away from it.
    var instances: [StressTally]
    /// Writes whose outcome the thread does not know, for the resolution after the load.
    var unknownWrites: [StressUnknownWrite] = []

    init(instanceCount: Int) {
        instances = [StressTally](repeating: StressTally(), count: instanceCount)
    }
}

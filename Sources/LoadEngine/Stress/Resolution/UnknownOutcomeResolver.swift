import WireContract
import WireJSON

/// After the load: sends every write of unknown outcome again, with its same idempotency key, to
/// a live instance, and records what the answer settles in the ledger.
///
/// When svcd binds keys, the resend's answer is the original's outcome: `ok` (the bound result,
/// or the write done now) means it took effect exactly once, a refusal that it took none
/// (refusals bind nothing). When svcd does not bind them, a resend is a new write: it is recorded
/// as one, and the original stays unknown, so the checks stay exact either way. Whatever gets no
/// answer stays unknown.
struct UnknownOutcomeResolver {
    let caller: BatchCaller
    let keysHonoured: Bool

    /// Resolves `writes` into `ledger` and returns the summary.
    func resolve(_ writes: [StressUnknownWrite], into ledger: inout StressLedger) throws(LoadFailure) -> StressResolution {
        var summary = StressResolution(enabled: true, keysHonoured: keysHonoured, unknownAfterLoad: writes.count)
        var useCases: [UseCaseName] = []
        var byUseCase: [UseCaseName: [StressUnknownWrite]] = [:]
        for write in writes {
            if byUseCase[write.request.useCase] == nil { useCases.append(write.request.useCase) }
            byUseCase[write.request.useCase, default: []].append(write)
        }
        for useCase in useCases {
            let batch = byUseCase[useCase] ?? []
            let answers = try caller.callEach(useCase, batch.map(\.request.params), keys: batch.map(\.key))
            summary.resent += batch.count
            for (write, answer) in zip(batch, answers) {
                settle(write.request, answer: answer, in: &ledger, summary: &summary)
            }
        }
        return summary
    }

    private func settle(_ request: StressRequest, answer: JSONValue?, in ledger: inout StressLedger, summary: inout StressResolution) {
        guard let answer else {
            // Neither the original nor the resend answered; without bound keys they are two
            // writes of unknown outcome.
            request.recordUnknown(in: &ledger)
            if !keysHonoured { request.recordUnknown(in: &ledger) }
            summary.stillUnknown += 1
            return
        }
        if !keysHonoured {
            request.recordUnknown(in: &ledger)
            summary.stillUnknown += 1
        }
        if answer.replySucceeded {
            (answer.replyResult ?? .null).encoded().withUnsafeBytes { request.recordSuccess(JSONSkim(document: $0), in: &ledger) }
            if keysHonoured { summary.tookEffect += 1 } else { summary.newWritesAcknowledged += 1 }
            return
        }
        let code = answer.replyErrorCode ?? "unreadable_error"
        if code == request.expectedRefusal?.rawValue {
            request.recordRefusal(in: &ledger)
            if keysHonoured { summary.noEffect += 1 } else { summary.newWritesRefused += 1 }
        } else if BatchCaller.isTransient(code) {
            // Still refused for the moment after every retry: no effect from the resend.
            if keysHonoured {
                request.recordUnknown(in: &ledger)
                summary.stillUnknown += 1
            }
        } else if answer.replyErrorOutcome == .unknown {
            // Not confirmed again: with bound keys the same write, still unknown; without, a new
            // write of unknown outcome besides the original.
            request.recordUnknown(in: &ledger)
            if keysHonoured { summary.stillUnknown += 1 }
        } else {
            // By the contract the resend had no effect, and the original stays unknown.
            summary.unexpectedErrors += 1
            if keysHonoured {
                request.recordUnknown(in: &ledger)
                summary.stillUnknown += 1
            }
        }
    }
}

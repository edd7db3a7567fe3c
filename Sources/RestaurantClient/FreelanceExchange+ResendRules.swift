import WireContract

extension FreelanceExchange {
    /// Whether a call answered with `code` and `outcome` may be sent again (budget permitting):
    /// the codes the contract says had no effect and are worth another try, and a keyed write
    /// whose commit outcome is unknown (the key makes the resend take effect at most once).
    /// Decided from the typed fields only, never from the message.
    static func mayResend(after code: WireErrorCode?, outcome: WireErrorOutcome?, _ job: Job) -> Bool {
        if code?.isSafeToResend == true { return true }
        return outcome == .unknown && job.idempotencyKey != nil && job.useCase.writes
    }

    /// Whether a call that timed out may be sent again: a read, or a write carrying an
    /// idempotency key (every write does, see ``RestaurantClient/call(_:params:idempotencyKey:)``).
    static func mayResendAfterTimeout(_ job: Job) -> Bool {
        !job.useCase.writes || job.idempotencyKey != nil
    }
}

import WireContract

extension FreelanceExchange {
    /// Whether a call answered with `code` may be sent again (budget permitting): the codes the
    /// contract says had no effect, and `internal` for a keyed write whose commit outcome is
    /// unknown (the key makes the resend take effect at most once).
    static func mayResend(after code: WireErrorCode?, message: String, _ job: Job) -> Bool {
        if code?.isSafeToResend == true { return true }
        return code == .internal && job.idempotencyKey != nil && job.useCase.writes
            && saysCommitOutcomeIsUnknown(message)
    }

    /// Whether a call that timed out may be sent again: a read, or a write carrying an
    /// idempotency key (every write does, see ``RestaurantClient/call(_:params:idempotencyKey:)``).
    static func mayResendAfterTimeout(_ job: Job) -> Bool {
        !job.useCase.writes || job.idempotencyKey != nil
    }

    /// Whether an `internal` message says the write's commit outcome is unknown. The contract
    /// fixes the meaning, not the words, so this accepts any message speaking of an unknown
    /// (or uncertain) outcome, or pointing at the idempotency key; the plain `internal error`
    /// is not one.
    static func saysCommitOutcomeIsUnknown(_ message: String) -> Bool {
        let text = message.lowercased()
        if text.contains("idempotencykey") || text.contains("idempotency key") { return true }
        return text.contains("outcome") && (text.contains("unknown") || text.contains("uncertain") || text.contains("not known"))
    }
}

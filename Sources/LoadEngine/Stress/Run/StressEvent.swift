/// The stages of a stress run, announced as it reaches them (for the operator's notes).
public enum StressEvent: Sendable {
    /// The set-up starts: `restaurants` with `menuItems` between them, and the plan's users.
    case settingUp(restaurants: Int, menuItems: Int)
    /// The set-up is done; the load starts.
    case loadStarting
    /// The load is over (its last progress snapshot was handed out).
    case loadFinished
    /// `count` writes of unknown outcome are being sent again with their idempotency keys.
    case resendingUnknownOutcomes(count: Int)
    /// The invariant checks start.
    case checkingInvariants
}

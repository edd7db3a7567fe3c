/// One acknowledged registration of a contested email.
struct StressRegistration: Sendable {
    /// The new user's id.
    let userId: String
    /// The email exactly as sent (mixed case).
    let email: String
}

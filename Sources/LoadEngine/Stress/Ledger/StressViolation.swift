/// A broken rule: which invariant, and what was seen.
struct StressViolation: Sendable {
    /// The invariant's name, e.g. `favoritesCap`.
    let invariant: String
    /// What was seen, in plain words.
    let detail: String
}

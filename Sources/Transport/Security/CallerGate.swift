/// What an endpoint's socket thread checks each request against: the callers of its
/// ``CallerDirectory`` and the permission its requests need (its use case's name, or
/// `events` for the event log).
struct CallerGate: Sendable {
    /// Who is calling, and what each caller may do.
    let directory: CallerDirectory
    /// The name a caller's `allow` must list to be served here.
    let permission: String
}

/// A write of the load whose outcome the client does not know (no answer within the timeout, or
/// an unexpected error), kept with its idempotency key so the run can resolve it afterwards.
struct StressUnknownWrite: Sendable {
    /// The request as sent.
    let request: StressRequest
    /// Its idempotency key.
    let key: String
    /// The instance it was sent to.
    let instance: Int
}

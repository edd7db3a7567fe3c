/// What one ``PipelinedClient`` run did. "Counted" replies are those its ``PipelinedSchedule``
/// counts; the others were answered too, only outside the measurement.
public struct PipelinedOutcome: Sendable {
    /// Requests sent.
    public var sent = 0
    /// Counted replies, failures included.
    public var replies = 0
    /// Counted replies that were not the expected answer: not `ok` from the service, not the
    /// request's length from an echo.
    public var failures = 0
    /// Every reply that was not the expected answer, counted or not, by the service's error code
    /// (`unreadable_error` when it has none; `mismatch` for an echo).
    public var errorCodes: [String: Int] = [:]
    /// Send → reply of each counted reply, in nanoseconds, in arrival order.
    public var latencies: [UInt64] = []
    /// The measured window: as scheduled, or the first send to the last reply; 0 for a phased
    /// run (its caller measures it).
    public var windowNanoseconds: UInt64 = 0

    /// Counted replies that were the expected answer.
    public var succeeded: Int { replies - failures }
}

/// The instant by which the request the current task serves must have started its store work:
/// its receipt plus the queue-time target. Bound by the transport around a request's use case
/// when it runs as a task of its own (reads that wait for the database, writes); read by the
/// stores where an operation queues (for a read thread, a group commit), which refuse it unrun
/// once the instant has passed. The waits of one request's stages then add up to one target,
/// not one target each.
public enum QueueDeadline {
    /// `nil` outside a request (seeding, tests, tools): each wait is bounded on its own.
    @TaskLocal public static var instant: ContinuousClock.Instant?
}

/// Whether the current task's writes are held to the stores' queue-time target. They are,
/// except inside ``exempt(_:)``: seeding the sample data set at start-up is no client's request,
/// and a seeding write refused `busy` (a slow first commit, a new database connection opened
/// while the seeding lock holds another) would stop svcd from starting.
///
/// A task-local value, like ``EventRecording``: it holds for the task that seeds and the tasks it
/// starts, and for no other. Each store reads it where a write or a wait for a connection
/// enters it, in the caller's task.
public enum QueueTimeExemption {
    @TaskLocal static var isExempt = false

    /// Runs `body` with the queue-time target lifted for the store operations it makes.
    public static func exempt<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await $isExempt.withValue(true) { try await body() }
    }

    /// `target` unless the current task is exempt.
    static func target(_ target: Duration?) -> Duration? {
        isExempt ? nil : target
    }
}

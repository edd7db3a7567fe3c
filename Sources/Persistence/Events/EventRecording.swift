import Domain

/// Whether writes made by the current task append their events. They do, except inside
/// ``suspended(_:)``: seeding the sample data set goes through the same repositories as requests
/// do, and appends nothing (the contract's event log starts with the first change a client made).
///
/// A task-local value, so it holds for the task that seeds and the tasks it starts, and for no
/// other: requests served meanwhile (on PostgreSQL, other instances serve while one seeds) append
/// their events as always. Each store reads it where a write enters it, in the writer's task.
public enum EventRecording {
    @TaskLocal static var isSuspended = false

    /// Runs `body` with event appending suspended for the writes it makes.
    public static func suspended<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await $isSuspended.withValue(true) { try await body() }
    }

    /// `encoder` unless appending is suspended for the current task.
    static func encoder(_ encoder: (any EventEncoding)?) -> (any EventEncoding)? {
        isSuspended ? nil : encoder
    }
}

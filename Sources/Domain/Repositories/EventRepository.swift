/// The event log: the events every store appends in its writes' own atomic steps (see
/// ``DomainEvent``), numbered 1, 2, 3, … without gaps across the whole service, read by sequence
/// number and pruned from the oldest end.
public protocol EventRepository: Sendable {
    /// Up to `limit` events with seq > `after`, only of the given types (all when `nil`), in seq
    /// order, with the log's bounds, all read at one moment.
    func events(after: Int64, types: Set<String>?, limit: Int) async throws -> EventLogSlice
    /// Waits until the log holds an event with seq > `after`, then returns up to `limit` of the
    /// events after it (every type) in seq order: what a live stream publishes. Throws
    /// `CancellationError` when the calling task is cancelled while waiting.
    func nextEvents(after: Int64, limit: Int) async throws -> [LoggedEvent]
    /// The highest seq in the log (0 when nothing was ever appended): where a live stream that
    /// starts now begins.
    func lastSeq() async throws -> Int64
    /// Forgets the oldest events: every event before the first one written at or after `cutoff`
    /// (so the log never has a hole), but never the newest; returns how many.
    func removeEvents(writtenBefore cutoff: Timestamp) async throws -> Int
}

/// Reads the event log from a sequence number: what a subscriber that restarted, or that missed
/// live events, catches up with.
public struct ReadEventLog: Sendable {
    /// Accepted page sizes.
    public static let limits = 1...1000
    /// The page size when none is given.
    public static let defaultLimit = 100

    private let events: any EventRepository

    /// Creates the use case.
    public init(events: any EventRepository) {
        self.events = events
    }

    /// The events with seq > `after` (≥ 0) of the given types (all when `nil`), in seq order, at
    /// most `limit` (1…1000, default 100) of them, the filter applied before the limit
    /// [invalid_input]. When the log no longer keeps the event after `after` (it was pruned: the
    /// oldest kept is S and `after` < S − 1), nothing is returned [gone].
    public func execute(after: Int64, limit: Int?, types: Set<String>?) async throws -> EventLogSlice {
        guard after >= 0 else { throw DomainError.invalidInput(field: "after", reason: "must not be negative") }
        let limit = try Validate.integer(limit ?? Self.defaultLimit, field: "limit", in: Self.limits)
        let slice = try await events.events(after: after, types: types, limit: limit)
        guard after >= slice.firstKeptSeq - 1 else {
            throw DomainError.gone(firstKeptSeq: slice.firstKeptSeq)
        }
        return slice
    }
}

/// A part of the event log and the log's bounds, read at one moment.
public struct EventLogSlice: Sendable, Hashable {
    /// The events asked for, in seq order.
    public let events: [LoggedEvent]
    /// The highest seq in the whole log (0 when nothing was ever appended).
    public let lastSeq: Int64
    /// The oldest seq the log still keeps; ``lastSeq`` + 1 when it keeps none.
    public let firstKeptSeq: Int64

    /// Creates the slice.
    public init(events: [LoggedEvent], lastSeq: Int64, firstKeptSeq: Int64) {
        self.events = events
        self.lastSeq = lastSeq
        self.firstKeptSeq = firstKeptSeq
    }
}

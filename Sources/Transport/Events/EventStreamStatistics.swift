/// What the live event stream of one instance has done: how far the log goes as this instance
/// knows it, how far it has published, how many events it published, how many subscribers are
/// connected, and how long events took from their write to their publication.
public struct EventStreamStatistics: Sendable, Hashable {
    /// The highest seq in the log as this instance knows it.
    public var lastWrittenSeq: Int64
    /// The highest seq this instance published, or passed over while no subscriber was
    /// connected.
    public var lastPublishedSeq: Int64
    /// Events published since start (sent with at least one subscriber connected).
    public var published: Int
    /// Subscribers connected now.
    public var subscribers: Int
    /// From an event's write (its `at`) to its publication, in milliseconds; all zero before the
    /// first event.
    public var lagMillis: LatencySummary

    /// Creates the figures.
    public init(lastWrittenSeq: Int64, lastPublishedSeq: Int64, published: Int, subscribers: Int, lagMillis: LatencySummary) {
        self.lastWrittenSeq = lastWrittenSeq
        self.lastPublishedSeq = lastPublishedSeq
        self.published = published
        self.subscribers = subscribers
        self.lagMillis = lagMillis
    }
}

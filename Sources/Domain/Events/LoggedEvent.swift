/// An event as the event log keeps it: numbered, stamped with its write's time, and encoded by
/// the service's ``EventEncoding`` (the stores and the log never look inside `data`).
public struct LoggedEvent: Sendable, Hashable {
    /// Its place in the log: 1, 2, 3, … without gaps, one sequence for the whole service (every
    /// instance of a cluster). For the events of one key, seq order is commit order.
    public let seq: Int64
    /// The event type's name, as ``EventEncoding`` gave it.
    public let type: String
    /// When the write that appended it ran.
    public let at: Timestamp
    /// ``DomainEvent/key``: the id of the entity written.
    public let key: String
    /// The event's data as ``EventEncoding`` encoded it (a JSON object).
    public let data: [UInt8]
    /// The writing request's trace context (W3C `traceparent`), when it carried one.
    public let traceparent: String?

    /// An event read back from a log.
    public init(seq: Int64, type: String, at: Timestamp, key: String, data: [UInt8], traceparent: String? = nil) {
        self.seq = seq
        self.type = type
        self.at = at
        self.key = key
        self.data = data
        self.traceparent = traceparent
    }
}

/// An event encoded for the log, not yet numbered: what ``EventEncoding`` makes of a
/// ``DomainEvent``.
public struct EncodedEvent: Sendable, Hashable {
    /// The event type's name.
    public let type: String
    /// The event's data (a JSON object).
    public let data: [UInt8]

    /// Creates the encoded form.
    public init(type: String, data: [UInt8]) {
        self.type = type
        self.data = data
    }
}

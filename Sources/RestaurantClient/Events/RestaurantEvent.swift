import WireContract
import WireJSON

/// One event of svcd's event log (Docs/PROTOCOL.md, "Events"): a change the service made, as it
/// was when it was written.
public struct RestaurantEvent: Sendable, Hashable {
    /// Its place in the log: 1, 2, 3, … without gaps across every instance of a cluster.
    public let seq: Int64
    /// The type's name as sent (``eventType`` when this client knows it).
    public let type: String
    /// The write's time, ISO-8601 UTC as the wire has it.
    public let at: String
    /// The id of the entity written (the user, restaurant, menu item or order).
    public let key: String
    /// What changed: the write's result and what it implies (see the protocol's list per type).
    public let data: JSONObject
    /// The writing request's trace context, when it carried one.
    public let traceparent: String?

    /// The type, when this client version knows it.
    public var eventType: EventType? { EventType(rawValue: type) }

    /// Reads an event object (`{"seq", "type", "at", "key", "data"[, "traceparent"]}`).
    /// - Throws: ``RestaurantClientError/malformedReply(_:)`` naming the member that is missing
    ///   or of the wrong type.
    public init(_ value: JSONValue) throws(RestaurantClientError) {
        let fields = try Fields(value, path: "event")
        guard let seq = fields.object[WireEvent.Key.seq.name]?.intValue, seq > 0 else {
            throw .malformedReply("event.\(WireEvent.Key.seq.name): expected a positive integer")
        }
        self.seq = Int64(seq)
        type = try fields.string(WireEvent.Key.type.name)
        at = try fields.string(WireEvent.Key.at.name)
        key = try fields.string(WireEvent.Key.key.name)
        guard let data = fields.object[WireEvent.Key.data.name]?.objectValue else {
            throw .malformedReply("event.\(WireEvent.Key.data.name): expected an object")
        }
        self.data = data
        traceparent = try fields.optionalString(WireEvent.Key.traceparent.name)
    }

    /// The event as JSON, as the service sent it (members in the wire's order).
    public var json: JSONValue {
        var object = JSONObject()
        object.append(key: WireEvent.Key.seq.name, value: .int(Int(seq)))
        object.append(key: WireEvent.Key.type.name, value: .string(type))
        object.append(key: WireEvent.Key.at.name, value: .string(at))
        object.append(key: WireEvent.Key.key.name, value: .string(key))
        object.append(key: WireEvent.Key.data.name, value: .object(data))
        if let traceparent { object.append(key: WireEvent.Key.traceparent.name, value: .string(traceparent)) }
        return .object(object)
    }
}

/// One page of the event log (``RestaurantClient/eventLog(after:limit:types:)``).
public struct EventLogPage: Sendable, Hashable {
    /// The events after the seq asked for, in seq order.
    public let events: [RestaurantEvent]
    /// The highest seq in the whole log when it was read.
    public let lastSeq: Int64

    /// Reads a log result (`{"events": […], "lastSeq": n}`).
    init(_ result: JSONObject) throws(RestaurantClientError) {
        guard let events = result[WireEvent.Result.events.name]?.arrayValue else {
            throw .malformedReply("result.\(WireEvent.Result.events.name): expected an array")
        }
        guard let lastSeq = result[WireEvent.Result.lastSeq.name]?.intValue else {
            throw .malformedReply("result.\(WireEvent.Result.lastSeq.name): expected an integer")
        }
        var parsed: [RestaurantEvent] = []
        parsed.reserveCapacity(events.count)
        for event in events { parsed.append(try RestaurantEvent(event)) }
        self.events = parsed
        self.lastSeq = Int64(lastSeq)
    }
}

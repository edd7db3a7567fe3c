import Domain
import Telemetry

/// What a successful write stored, as its store's write step records it in the same atomic step:
/// the result an idempotency key is bound to, and the event it appends (none when the write
/// changed nothing).
struct StoredWrite: Sendable {
    /// The result a claim on the write's idempotency key binds.
    let result: WriteResult
    /// The event the write appends; `nil` for a write that changed nothing.
    let event: PendingEvent?

    /// A write that changed something: its result and its event.
    static func changed(_ result: WriteResult, _ event: DomainEvent) -> StoredWrite {
        StoredWrite(result: result, event: .domain(event))
    }

    /// A write that changed something, with its event prepared before the write (see
    /// ``PreparedEvent``); `nil` when the writing task appends no events.
    static func changed(_ result: WriteResult, prepared: PreparedEvent?) -> StoredWrite {
        StoredWrite(result: result, event: prepared.map(PendingEvent.prepared))
    }

    /// A write that changed something and appended its event itself, in the statement that
    /// wrote (PostgreSQL's PlaceOrder: no round trip of its own), or appended none because the
    /// writing task appends no events.
    static func changed(_ result: WriteResult, appended: Bool) -> StoredWrite {
        StoredWrite(result: result, event: appended ? .written : nil)
    }

    /// A write that succeeded without changing anything (saving an existing favourite, …): its
    /// key still binds the result, and nothing is appended to the event log.
    static func unchanged(_ result: WriteResult) -> StoredWrite {
        StoredWrite(result: result, event: nil)
    }
}

/// A write's event on its way to the log: to encode in the write's step, or encoded already.
enum PendingEvent: Sendable {
    /// Encoded (and stamped) in the write's step.
    case domain(DomainEvent)
    /// Encoded before the write.
    case prepared(PreparedEvent)
    /// Appended already by the write's own statement.
    case written
}

/// An event encoded and stamped before its write runs: for writes whose event does not depend
/// on what the store holds (a registration's, a new restaurant's or menu item's), so the encoding
/// happens in the writer's task instead of on SQLite's one writer, which every write waits for.
struct PreparedEvent: Sendable {
    /// The row the log keeps.
    let record: EventRecord
    /// The encoded data (what the log's tail hands the live stream).
    let data: [UInt8]

    /// `event` encoded by `encoder`, written at `at` by the request whose trace context is
    /// `traceparent` (by default the writing task's, ``Telemetry/WriterTrace``).
    init(_ event: DomainEvent, encodedBy encoder: any EventEncoding, at: Timestamp, traceparent: String? = WriterTrace.traceparent) {
        let encoded = encoder.encode(event)
        record = EventRecord(encoded, key: event.key, at: at, traceparent: traceparent)
        data = encoded.data
    }

    /// The event as the log numbers it.
    func logged(seq: Int64) -> LoggedEvent {
        LoggedEvent(seq: seq, type: record.type, at: Timestamp(millisecondsSinceEpoch: record.at), key: record.key, data: data, traceparent: record.traceparent)
    }
}

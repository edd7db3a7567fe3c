import Domain
import Logging
import WireContract
import WireJSON

/// The ``RequestHandler`` of the event log endpoint: reads each request's params, runs
/// ``ReadEventLog`` as a task of its own on the global executor (a read of the log may wait for
/// the database) and queues the reply `{"events": […], "lastSeq": n}`.
struct EventLogHost: RequestHandler {
    /// Reads the log.
    let readEventLog: ReadEventLog
    /// Where replies go to the socket thread.
    let outbox: ReplyOutbox
    /// Logs reads that fail inside the service.
    let logger: Logger

    func serve(_ requests: RequestBatches) async {
        await answerEachOnGlobalExecutor(requests, answer)
    }

    private func answer(_ inbound: InboundRequest) async {
        let request = inbound.request
        if let milliseconds = request.deadlineMilliseconds, EndpointClock.now > inbound.receivedAt + .milliseconds(milliseconds) {
            let error = WireError(.deadlineExceeded, "the deadline of \(milliseconds) ms passed before the request started; it had no effect")
            outbox.push(OutboundReply(inbound, body: WireReply.failure(id: request.id, error: error), outcome: error.code))
            return
        }
        do {
            let params = request.params
            let after = try params.int(WireEvent.Parameter.after.name)
            let limit = try params.optionalInt(WireEvent.Parameter.limit.name)
            let types = try Self.types(params)
            let slice = try await readEventLog.execute(after: Int64(after), limit: limit, types: types)
            outbox.push(OutboundReply(inbound, body: WireReply.success(id: request.id, result: EventLogPage(slice: slice)), outcome: nil))
        } catch {
            let wire = WireError(mapping: error)
            if wire.isInternal {
                logger.error("reading the event log failed", metadata: ["error": "\(error)"])
            }
            outbox.push(OutboundReply(inbound, body: WireReply.failure(id: request.id, error: wire), outcome: wire.code))
        }
    }

    /// `types`: event type names the contract knows, or `nil` (every type).
    static func types(_ params: Params) throws(WireError) -> Set<String>? {
        let key = WireEvent.Parameter.types.name
        guard let names = try params.optionalStringArray(key) else { return nil }
        for name in names where EventType(rawValue: name) == nil {
            throw WireError(.invalidInput, "\(key): \"\(name)\" is not an event type; the types are \(EventType.namesList)")
        }
        return Set(names)
    }
}

/// The event log's result: `{"events": […], "lastSeq": n}`.
struct EventLogPage: WireEncodable {
    let slice: EventLogSlice

    consuming func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(literal: WireEvent.Result.events.literal)
        writer.beginArray()
        for event in slice.events { writer.loggedEvent(event) }
        writer.endArray()
        writer.key(literal: WireEvent.Result.lastSeq.literal)
        writer.int(slice.lastSeq)
        writer.endObject()
    }
}

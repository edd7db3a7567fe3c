import Logging
import WireJSON

/// The ``RequestHandler`` of the admin endpoint: reads each request's operation (``AdminRequest``)
/// and runs it as a task of its own on the global executor (an operation may wait for the
/// store, and must not hold up the admin socket thread), then queues the reply.
struct AdminHost: RequestHandler {
    /// Runs the operations.
    let handler: AdminHandler
    /// Where replies go to the socket thread.
    let outbox: ReplyOutbox
    /// Logs operations that fail with anything but a `WireError`.
    let logger: Logger

    func serve(_ requests: RequestBatches) async {
        await answerEachOnGlobalExecutor(requests, answer)
    }

    private func answer(_ inbound: InboundRequest) async {
        let id = inbound.request.id
        let error: WireError
        do {
            let result = try await handler(try AdminRequest(inbound.request))
            outbox.push(OutboundReply(inbound, body: WireReply.success(id: id, result: AdminResult(value: result)), outcome: nil))
            return
        } catch let refusal as WireError {
            error = refusal
        } catch let failure {
            logger.error("admin operation failed", metadata: ["op": "\(inbound.request.operation ?? "")", "error": "\(failure)"])
            error = WireError(mapping: failure)
        }
        outbox.push(OutboundReply(inbound, body: WireReply.failure(id: id, error: error), outcome: error.code))
    }
}

/// An admin operation's result, written as the JSON value it is.
private struct AdminResult: WireEncodable {
    let value: JSONValue

    consuming func write(to writer: inout JSONWriter) {
        writer.value(value)
    }
}

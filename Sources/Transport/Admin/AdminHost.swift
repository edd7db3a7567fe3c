import Logging
import WireJSON

/// The ``RequestHandler`` of the admin endpoint: runs each admin request's operation as a task
/// of its own on the global executor (an operation may wait for the store, and must not hold up
/// the admin socket thread), and queues the reply.
struct AdminHost: RequestHandler {
    /// Runs the operations.
    let handler: AdminHandler
    /// Where replies go to the socket thread.
    let outbox: ReplyOutbox
    /// Logs operations that fail with anything but a `WireError`.
    let logger: Logger

    func serve(_ requests: AsyncStream<[InboundRequest<AdminRequest>]>) async {
        await withDiscardingTaskGroup { group in
            for await batch in requests {
                for inbound in batch {
                    group.addTask(executorPreference: globalConcurrentExecutor) { await answer(inbound) }
                }
            }
        }
    }

    private func answer(_ inbound: InboundRequest<AdminRequest>) async {
        let request = inbound.request
        do {
            let result = try await handler(request)
            outbox.push(OutboundReply(inbound, body: WireReply.success(id: request.id, result: AdminResult(value: result)), outcome: nil))
        } catch {
            let wire: WireError
            if let error = error as? WireError {
                wire = error
            } else {
                logger.error("admin operation failed", metadata: ["op": "\(request.op)", "error": "\(error)"])
                wire = WireError(mapping: error)
            }
            outbox.push(OutboundReply(inbound, body: WireReply.failure(id: request.id, error: wire), outcome: wire.code))
        }
    }
}

/// An admin operation's result, written as the JSON value it is.
private struct AdminResult: WireEncodable {
    let value: JSONValue

    consuming func write(to writer: inout JSONWriter) {
        writer.value(value)
    }
}

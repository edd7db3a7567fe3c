import Logging

/// The actor that hosts one use case: it receives batches of requests from the socket thread in
/// one hop, runs the use case for each and queues the encoded replies.
actor EndpointHost {
    private let route: UseCaseRoute
    private let outbox: ReplyOutbox
    private let logger: Logger

    init(route: UseCaseRoute, outbox: ReplyOutbox, logger: Logger) {
        self.route = route
        self.outbox = outbox
        self.logger = logger
    }

    /// Handles batches until the socket thread ends the stream. Iterating inside the actor
    /// resumes each batch directly on the actor's executor: no hop on and off per batch.
    func serve(_ requests: AsyncStream<[InboundRequest]>) async {
        for await batch in requests {
            await process(batch)
        }
    }

    /// Handles a batch in arrival order.
    func process(_ batch: [InboundRequest]) async {
        for request in batch {
            let body = await reply(to: request)
            outbox.push(OutboundReply(envelope: request.envelope, body: body))
        }
    }

    private func reply(to inbound: InboundRequest) async -> [UInt8] {
        let request = inbound.request
        if let deadline = inbound.deadline, ContinuousClock.now > deadline {
            return WireReply.failure(id: request.id, error: WireError(.deadlineExceeded, "the deadline of \(request.deadlineMilliseconds ?? 0) ms passed before the request started; it had no effect"))
        }
        do {
            let result = try await route.handle(request.params)
            return WireReply.success(id: request.id, result: result)
        } catch {
            let wire = WireError(mapping: error)
            if wire.isInternal {
                logger.error("use case failed", metadata: ["useCase": "\(route.name.rawValue)", "error": "\(error)"])
            }
            return WireReply.failure(id: request.id, error: wire)
        }
    }
}

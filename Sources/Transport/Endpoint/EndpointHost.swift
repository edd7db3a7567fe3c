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

    /// Handles batches until the socket thread ends the stream, and returns once every request
    /// taken is answered. Iterating inside the actor resumes each batch directly on the actor's
    /// executor: no hop on and off per batch.
    ///
    /// Writes wait for a durable commit, so each runs as its own child task: concurrent writes
    /// then share group commits instead of queueing behind each other's fsync. The in-flight
    /// bound of the socket thread bounds the number of tasks.
    func serve(_ requests: AsyncStream<[InboundRequest]>) async {
        guard route.name.writes else {
            for await batch in requests {
                await process(batch)
            }
            return
        }
        await withDiscardingTaskGroup { group in
            for await batch in requests {
                for request in batch {
                    group.addTask { await self.answer(request) }
                }
            }
        }
    }

    private nonisolated func answer(_ request: InboundRequest) async {
        let body = await reply(to: request)
        outbox.push(OutboundReply(envelope: request.envelope, body: body))
    }

    /// Handles a batch in arrival order.
    func process(_ batch: [InboundRequest]) async {
        for request in batch {
            let body = await reply(to: request)
            outbox.push(OutboundReply(envelope: request.envelope, body: body))
        }
    }

    private nonisolated func reply(to inbound: InboundRequest) async -> [UInt8] {
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

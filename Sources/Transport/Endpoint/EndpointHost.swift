import Domain
import Logging
import Telemetry
import WireContract
import WireJSON

/// The actor that hosts one use case, the ``RequestHandler`` of a use-case endpoint: it receives
/// batches of requests from the socket thread in one hop, runs the use case for each and queues
/// the encoded replies.
///
/// Its executor is the endpoint's ``SocketThreadExecutor``: the actor's jobs run on the socket
/// thread between polls, so entering it from the socket thread's own work costs no thread
/// hand-off. Reads are handled one after another, in arrival order, by the one `serve` loop;
/// writes each run as a child task on the global executor (they wait for durable commits).
actor EndpointHost: RequestHandler {
    private let route: UseCaseRoute
    private let outbox: ReplyOutbox
    private let logger: Logger
    private let executor: SocketThreadExecutor
    /// Names the requests' callers in the log lines written while serving them.
    private let callers: CallerDirectory?
    /// The tracer of the requests' spans, when spans are exported.
    let tracing: RequestTracing?

    /// The socket thread.
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Whether this endpoint's requests each run as their own task: every path but
    /// ``ServingPath/inline``.
    private let concurrent: Bool

    /// ``EndpointConfiguration/queueTimeTarget``.
    private let queueTimeTarget: Duration

    /// Where each request's task runs when ``concurrent``: writes, and reads without a
    /// `readLane`, on the global concurrent executor; reads with one on its threads.
    private let taskExecutor: any TaskExecutor

    /// The read lane the requests' tasks queue in, when they do: a request that finds it behind
    /// by more than the queue-time target is refused before it queues.
    private let admissionLane: BlockingReadExecutor.Lane?

    init(
        route: UseCaseRoute, outbox: ReplyOutbox, executor: SocketThreadExecutor,
        readLane: BlockingReadExecutor.Lane?, queueTimeTarget: Duration, logger: Logger, callers: CallerDirectory? = nil,
        tracing: RequestTracing? = nil
    ) {
        self.callers = callers
        self.tracing = tracing
        self.queueTimeTarget = queueTimeTarget
        self.concurrent = route.path != .inline
        self.taskExecutor = route.path == .write ? globalConcurrentExecutor : readLane ?? globalConcurrentExecutor
        self.admissionLane = route.path == .write ? nil : readLane
        self.executor = executor
        self.route = route
        self.outbox = outbox
        self.logger = logger
    }

    /// Handles batches until the socket thread ends the stream, and returns once every request
    /// taken is answered.
    ///
    /// Reads are answered one after another, in arrival order, encoded in one reused buffer.
    /// Writes wait for a durable commit, so each runs as its own child task: concurrent writes
    /// then share group commits instead of queueing behind each other's fsync. The in-flight
    /// bound of the socket thread bounds the number of tasks. They run on the global executor,
    /// not the endpoint's socket thread: measured with `storebench writes`, that gave 22–27k
    /// durable writes/s against 17–19k on the socket thread, whose polls the tasks' use-case
    /// work otherwise delays. Reads take the same path when each waits for a remote store, and
    /// run on the store's ``BlockingReadExecutor`` when its reads block their thread (SQLite).
    func serve(_ requests: RequestBatches) async {
        guard concurrent else {
            // Encodes every reply of this endpoint, one after another, in the same buffer.
            var writer = JSONWriter(capacity: 1024)
            for await batch in requests {
                await process(batch, writer: &writer)
            }
            return
        }
        // Encodes the refusals made here, before a request queues.
        var writer = JSONWriter(capacity: 512)
        await withDiscardingTaskGroup { group in
            for await batch in requests {
                for request in batch {
                    // A lane whose oldest job waited past the target serves a new request later
                    // still: refused now, it waits for nothing (the ones queued are refused at
                    // their turn, each by its own wait).
                    if let admissionLane, case let behind = admissionLane.oldestWait, behind > queueTimeTarget {
                        outbox.push(refusal(request, span: request.span, reason: "its use case's queue is \(Int(behind / .milliseconds(1))) ms behind", writer: &writer))
                        continue
                    }
                    group.addTask(executorPreference: taskExecutor) { await self.answer(request) }
                }
            }
        }
    }

    /// An `overloaded` reply to `inbound`, which did not run because of `reason`; `span` is what
    /// its log lines name.
    private nonisolated func refusal(_ inbound: InboundRequest, span: RequestSpan, reason: String, writer: inout JSONWriter) -> OutboundReply {
        let error = WireError(
            .overloaded, "\(reason), over the queue-time target of \(Int(queueTimeTarget / .milliseconds(1))) ms; it had no effect, send it again after a pause")
        return OutboundReply(inbound, body: WireReply.failure(id: inbound.request.id, error: error, using: &writer), outcome: error.code, span: span)
    }

    /// Answers one write on its own (each write task has its own buffer).
    private nonisolated func answer(_ request: InboundRequest) async {
        var writer = JSONWriter(capacity: 512)
        await outbox.push(reply(to: request, writer: &writer))
    }

    /// Handles a batch in arrival order.
    func process(_ batch: [InboundRequest], writer: inout JSONWriter) async {
        for request in batch {
            await outbox.push(reply(to: request, writer: &writer))
        }
    }

    /// The reply to `inbound`. A write runs with its span's `traceparent` bound
    /// (``Telemetry/WriterTrace``), which the events it appends carry; when ``tracing`` traces
    /// it (sampled), the request runs in a span of its own (``tracedReply(to:tracing:writer:)``).
    private nonisolated(nonsending) func reply(to inbound: InboundRequest, writer: inout JSONWriter) async -> OutboundReply {
        if let tracing, tracing.traces(callerSampled: inbound.request.callerTrace.map { $0.context.flags & 1 == 1 }, spanId: inbound.spanId) {
            return await tracedReply(to: inbound, tracing: tracing, writer: &writer)
        }
        var replayed = false
        guard route.path == .write else { return await answer(inbound, span: inbound.span, replayed: &replayed, writer: &writer) }
        let span = inbound.span
        return await WriterTrace.$traceparent.withValue(span.traceparent) {
            await answer(inbound, span: span, replayed: &replayed, writer: &writer)
        }
    }

    /// Runs the use case for `inbound`, unless it waited too long, and encodes the reply;
    /// `replayed` tells whether an idempotency key's recorded result answered it. `span` is what
    /// its log lines name.
    nonisolated(nonsending) func answer(_ inbound: InboundRequest, span: RequestSpan, replayed: inout Bool, writer: inout JSONWriter) async -> OutboundReply {
        let request = inbound.request
        let waited = EndpointClock.now - inbound.receivedAt
        if waited > queueTimeTarget {
            return refusal(inbound, span: span, reason: "the request waited \(Int(waited / .milliseconds(1))) ms for its turn", writer: &writer)
        }
        if let milliseconds = request.deadlineMilliseconds, waited > .milliseconds(milliseconds) {
            let error = WireError(.deadlineExceeded, "the deadline of \(milliseconds) ms passed before the request started; it had no effect")
            return OutboundReply(inbound, body: WireReply.failure(id: request.id, error: error, using: &writer), outcome: error.code, span: span)
        }
        do {
            // Reads ignore a key; a write binds it (see IdempotencyClaim).
            let claim = route.path == .write ? request.idempotencyKey.map { IdempotencyClaim(key: $0, useCase: route.name, params: request.params) } : nil
            let result = try await route.handle(request.params, claim)
            return OutboundReply(inbound, body: WireReply.success(id: request.id, result: result, using: &writer), outcome: nil, waited: waited, span: span)
        } catch let replay as IdempotentReplay {
            replayed = true
            let recorded = RecordedResult(bytes: replay.recordedResult)
            return OutboundReply(inbound, body: WireReply.success(id: request.id, result: recorded, using: &writer), outcome: nil, waited: waited, span: span)
        } catch {
            let wire = WireError(mapping: error)
            if wire.isInternal {
                var metadata: Logger.Metadata = [
                    "useCase": "\(route.name.rawValue)", "error": "\(error)",
                    "caller": "\(callerName(inbound.caller))",
                ]
                for (key, value) in span.logMetadata { metadata[key] = "\(value)" }
                logger.error("use case failed", metadata: metadata)
            }
            return OutboundReply(inbound, body: WireReply.failure(id: request.id, error: wire, using: &writer), outcome: wire.code, waited: waited, span: span)
        }
    }

    /// The name of the caller numbered `index` (``InboundRequest/caller``).
    nonisolated func callerName(_ index: Int) -> String {
        callers?.name(at: index) ?? CallerGrant.anonymous
    }

    /// The use case's name, the name of its requests' spans.
    nonisolated var useCaseName: String { route.name.rawValue }

    /// Whether the use case writes (its requests' events carry their trace).
    nonisolated var isWrite: Bool { route.path == .write }
}


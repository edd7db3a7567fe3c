import Logging
import SeededRandom
import Synchronization
import WireContract
import ZeroMQ

/// The body of an endpoint's dedicated thread: the one ROUTER serving loop, of the use-case
/// endpoints and of the admin endpoint alike (they differ in their ``RequestHandler`` and their
/// ``EndpointConfiguration``). It owns the ROUTER socket for the socket's whole life (created,
/// bound, used and closed on this thread only) and does every blocking call, so nothing blocks
/// Swift's cooperative pool.
///
/// Per wake-up it runs the endpoint's queued Swift jobs for a moment (the handler's serve task
/// and, for a use case, the reads run here, see `SocketThreadExecutor`), sends all queued
/// replies, then takes up to `maxBatch` requests off the socket, answers envelope errors,
/// overload and draining itself, and hands the rest to the handler in one batch.
final class SocketLoop {
    private let socket: ZMQSocket
    /// The context to terminate once the socket is closed, when the endpoint owns it (the admin
    /// endpoint's own context, and with it the ZAP handler in it).
    private let ownedContext: ZMQContext?
    private let poller = ZMQPoller()
    private let outbox: ReplyOutbox
    private let executor: SocketThreadExecutor
    private let control: EndpointControl
    private let availability: ServiceAvailability
    private let counters: EndpointCounters
    private let statistics: StatisticsRecorder
    private let configuration: EndpointConfiguration
    private let deliver: RequestBatches
    private let logger: Logger
    private let gate: CallerGate?
    /// The gate when it checks keys (`--client-keys`): requests are then checked per caller.
    private let keyGate: CallerGate?
    /// The callers as last read from the gate's directory, and that reading's generation.
    private var callers = CallerSnapshot(callers: [:])
    private var callersGeneration = -1
    /// The `User-Id` (client key) of the message last received, when ``keyGate`` is set.
    private var userId: String?
    /// Draws each request's span id (``RequestSpan``): unique within the thread's sequence,
    /// and seeded at random so two threads or processes do not share one.
    private var spanIds = SplitMix64(seed: UInt64.random(in: .min ... .max))

    /// The address the socket is bound to (with the real port for a `:0` or `:*` bind).
    let boundEndpoint: String

    private var inFlight = 0
    private var frames: [[UInt8]] = []
    private var replies: [OutboundReply] = []
    private var jobs: [UnownedJob] = []

    init(
        context: ZMQContext, ownsContext: Bool, address: String, configuration: EndpointConfiguration, outbox: ReplyOutbox,
        executor: SocketThreadExecutor, control: EndpointControl, availability: ServiceAvailability, counters: EndpointCounters,
        statistics: StatisticsRecorder, deliver: RequestBatches, logger: Logger,
        handshakeMonitor: String?, gate: CallerGate?
    ) throws(ZMQError) {
        let socket = try context.makeSocket(.router)
        do {
            try socket.setLinger(configuration.lingerMilliseconds)
            try socket.setMaxMessageSize(Int64(configuration.maxMessageSize))
            try socket.setRouterMandatory(true)
            try socket.setSendHighWaterMark(configuration.sendHighWaterMark)
            try socket.setReceiveHighWaterMark(configuration.receiveHighWaterMark)
            try socket.setHeartbeatInterval(configuration.heartbeatIntervalMilliseconds)
            try socket.setHeartbeatTimeout(configuration.heartbeatTimeoutMilliseconds)
            if let secretKey = configuration.curveServerSecretKey {
                try socket.setCurveServer(true)
                try socket.setCurveSecretKey(secretKey)
                // Handshakes that fail before ZAP is asked (plaintext or garbage): the
                // context's ZAPAuthenticator reads these events and counts them as refusals.
                if let handshakeMonitor {
                    try socket.startMonitor(handshakeMonitor, events: [.handshakeFailedProtocol, .handshakeFailedNoDetail])
                }
            }
            boundEndpoint = try socket.bind(address)
        } catch {
            socket.close()
            throw error
        }
        self.socket = socket
        ownedContext = ownsContext ? context : nil
        self.outbox = outbox
        self.executor = executor
        self.control = control
        self.availability = availability
        self.counters = counters
        self.statistics = statistics
        self.configuration = configuration
        self.deliver = deliver
        self.logger = logger
        self.gate = gate
        keyGate = gate?.directory.checksKeys == true ? gate : nil
        _ = poller.add(socket, events: .pollIn)
        _ = poller.add(fileDescriptor: outbox.wakeup.fileDescriptor, events: .pollIn)
    }

    /// Serves until a stop is requested and (when draining) every accepted request is answered;
    /// then closes the socket (and terminates an owned context) and ends the request stream.
    func run() {
        defer {
            socket.close()
            ownedContext?.terminate()
            // Before finishing the stream: the serve task's last steps then run elsewhere.
            executor.close()
            deliver.finish()
        }
        while true {
            // Block only when no reply and no job is queued; pushes and enqueues write the
            // eventfd only while this thread is announced as sleeping (see ReplyOutbox).
            let idle = outbox.prepareToSleep() && executor.isIdle
            let timeout = idle ? -1 : 0
            do {
                _ = try poller.poll(timeoutMilliseconds: timeout)
            } catch ZMQError.interrupted {
                outbox.awake()
                continue
            } catch ZMQError.terminated {
                // The context was terminated under the loop: the service is being torn down
                // (a start-up that failed elsewhere, e.g. another endpoint's port in use).
                outbox.awake()
                logger.debug("context terminated; endpoint stops")
                return
            } catch {
                outbox.awake()
                logger.error("poll failed; endpoint stops", metadata: ["error": "\(error)"])
                return
            }
            outbox.awake()
            if poller.returnedEvents(at: 1).canReceive {
                _ = try? outbox.wakeup.drain()
            }
            executor.runPending(using: &jobs)
            flushReplies()
            switch control.state {
            case .running: break
            case .stopping where inFlight == 0:
                // Requests already queued on the socket would be dropped at close without a
                // word: answer them (`unavailable`, no effect) first. Bounded, so a client that
                // keeps sending cannot hold the endpoint open.
                var rounds = 0
                while rounds < 64, receiveBatch() > 0 { rounds += 1 }
                if inFlight == 0 { return }
            case .stopping: break
            case .aborting: return
            }
            if poller.returnedEvents(at: 0).canReceive {
                receiveBatch()
            }
        }
    }

    private func flushReplies() {
        outbox.takeAll(into: &replies)
        guard !replies.isEmpty else { return }
        // Recorded before sending, so a client that has its reply also finds it counted.
        let now = EndpointClock.now
        statistics.record(replies, queuedAt: now)
        if logger.logLevel <= .trace {
            for reply in replies { traceAnswer(outcome: reply.outcome, receivedAt: reply.receivedAt, now: now, caller: reply.caller, span: reply.span) }
        }
        // Read in place: `for reply in replies` would copy each reply.
        for position in replies.indices {
            send(envelope: replies[position].envelope, body: replies[position].body)
        }
        inFlight -= replies.count
        counters.setInFlight(inFlight)
        replies.removeAll(keepingCapacity: true)
    }

    /// Takes up to `maxBatch` messages off the socket; returns how many it read.
    @discardableResult
    private func receiveBatch() -> Int {
        var batch: [InboundRequest] = []
        var read = 0
        let readsUserId = keyGate != nil
        // One access to the stored generator per batch, not one per request.
        var spans = spanIds
        defer { spanIds = spans }
        for _ in 0..<configuration.maxBatch {
            let info: ZMQMessageInfo?
            do {
                info = readsUserId
                    ? try socket.receiveMultipart(into: &frames, maxTotalBytes: configuration.maxMessageSize, dontWait: true, userId: &userId)
                    : try socket.receiveMultipart(into: &frames, maxTotalBytes: configuration.maxMessageSize, dontWait: true)
            } catch ZMQError.interrupted {
                continue
            } catch {
                logger.error("receive failed", metadata: ["error": "\(error)"])
                break
            }
            guard let info else { break }
            read += 1
            if let request = accept(info, spans: &spans) {
                // Counted at once, so the bound also holds within one batch.
                inFlight += 1
                // A second request means a busy socket: make room for a full batch at once
                // rather than growing 2, 4, 8, ….
                if batch.count == 1 { batch.reserveCapacity(configuration.maxBatch) }
                batch.append(request)
            }
        }
        if !batch.isEmpty {
            counters.setInFlight(inFlight)
            deliver.yield(batch)
        }
        return read
    }

    /// Classifies one received message: returns a request for the handler, or answers it here.
    private func accept(_ info: ZMQMessageInfo, spans: inout SplitMix64) -> InboundRequest? {
        let receivedAt = EndpointClock.now
        let count = frames.count
        guard count > 0 else { return nil }
        let caller: Caller?
        if let keyGate {
            if let (current, generation) = keyGate.directory.snapshot(newerThan: callersGeneration) {
                (callers, callersGeneration) = (current, generation)
            }
            // A key removed from the file since its handshake: no reply at all, as at the
            // handshake, whatever the message holds.
            guard let key = userId, let listed = callers.callers[key] else {
                keyGate.directory.droppedUnlisted(key: userId, endpoint: keyGate.permission)
                return nil
            }
            caller = listed
        } else {
            caller = nil
        }
        let callerIndex = caller?.index ?? CallerDirectory.anonymousIndex
        // Zero is not a valid span id.
        let spanId = spans.next() | 1
        // Everything up to the first empty frame is the routing envelope (a ROUTER adds the
        // peer's id; REQ and well-behaved DEALERs add the empty delimiter).
        guard let delimiter = frames[1..<max(1, count)].firstIndex(where: { $0.isEmpty }) else {
            reject(Envelope(routingId: frames[0], hops: []), receivedAt: receivedAt, caller: callerIndex, span: RequestSpan(spanId: spanId, caller: nil), id: nil, WireError(.malformed, "the message has no empty delimiter frame before the body"))
            return nil
        }
        let envelope = Envelope(routingId: frames[0], hops: delimiter > 1 ? Array(frames[1..<delimiter]) : [])
        if info.exceededLimit {
            reject(envelope, receivedAt: receivedAt, caller: callerIndex, span: RequestSpan(spanId: spanId, caller: nil), id: nil, WireError(.malformed, "the message exceeds the size limit of \(configuration.maxMessageSize) bytes"))
            return nil
        }
        let bodyCount = count - delimiter - 1
        guard bodyCount == 1 else {
            let message = bodyCount == 0 ? "the message has no body frame" : "the message has \(bodyCount) body frames; exactly one is expected"
            reject(envelope, receivedAt: receivedAt, caller: callerIndex, span: RequestSpan(spanId: spanId, caller: nil), id: nil, WireError(.malformed, message))
            return nil
        }
        let request: WireRequest
        do {
            request = try WireRequest.decode(frames[count - 1])
        } catch {
            reject(envelope, receivedAt: receivedAt, caller: callerIndex, span: RequestSpan(spanId: spanId, caller: nil), id: error.id, error.error)
            return nil
        }
        let span = RequestSpan(spanId: spanId, caller: request.callerTrace)
        if let caller, let gate = keyGate, !caller.line.allows(gate.permission) {
            reject(envelope, receivedAt: receivedAt, caller: callerIndex, span: span, id: request.id, WireError(
                .unauthorized, "caller \(caller.line.name) may not use \(gate.permission); the request had no effect"
            ))
            return nil
        }
        if control.state != .running || availability.isRefusingRequests {
            let reason = availability.state == .draining ? "the service is draining" : "the service is shutting down"
            reject(envelope, receivedAt: receivedAt, caller: callerIndex, span: span, id: request.id, WireError(.unavailable, "\(reason); the request had no effect, retry later or elsewhere"))
            return nil
        }
        if inFlight >= configuration.maxInFlight {
            reject(envelope, receivedAt: receivedAt, caller: callerIndex, span: span, id: request.id, WireError(.overloaded, "too many requests in flight; retry later"))
            return nil
        }
        // Last: a request refused for any other reason uses no token.
        if let caller, let bucket = caller.bucket, !bucket.take(now: receivedAt) {
            reject(envelope, receivedAt: receivedAt, caller: callerIndex, span: span, id: request.id, WireError(
                .overloaded, "caller \(caller.line.name) is over its rate of \(bucket.rate) requests per second; the request had no effect, retry later"
            ))
            return nil
        }
        return InboundRequest(envelope: envelope, request: request, receivedAt: receivedAt, caller: callerIndex, spanId: spanId)
    }

    private func reject(_ envelope: Envelope, receivedAt: Duration, caller: Int, span: RequestSpan, id: String?, _ error: WireError) {
        counters.countRejection()
        let now = EndpointClock.now
        statistics.record(receivedAt: receivedAt, queuedAt: now, outcome: error.code, caller: caller)
        if logger.logLevel <= .trace { traceAnswer(outcome: error.code, receivedAt: receivedAt, now: now, caller: caller, span: span) }
        send(envelope: envelope, body: WireReply.failure(id: id, error: error))
    }

    /// The `trace` line of one answered request (the logger carries the endpoint's name), with
    /// its caller and its trace (`trace_id`, `span_id`).
    private func traceAnswer(outcome: WireErrorCode?, receivedAt: Duration, now: Duration, caller: Int, span: RequestSpan?) {
        let micros = (now - receivedAt) / .microseconds(1)
        var metadata: Logger.Metadata = [
            "outcome": "\(outcome?.rawValue ?? "ok")", "micros": "\(Int(micros))",
            "caller": "\(gate?.directory.name(at: caller) ?? CallerGrant.anonymous)",
        ]
        for (key, value) in span?.logMetadata ?? [] { metadata[key] = "\(value)" }
        logger.trace("request answered", metadata: metadata)
    }

    private func send(envelope: Envelope, body: [UInt8]) {
        do {
            try envelope.routingId.withUnsafeBytes { id in
                Result { () throws(ZMQError) in try socket.send(id, more: true, dontWait: true) }
            }.get()
            for frame in envelope.hops {
                try socket.send(frame, more: true, dontWait: true)
            }
            try socket.send(UnsafeRawBufferPointer(start: nil, count: 0), more: true, dontWait: true)
            try socket.send(body, more: false, dontWait: true)
        } catch ZMQError.hostUnreachable {
            // The peer disconnected before its reply was ready.
            counters.countDroppedReply()
        } catch ZMQError.again {
            // The peer's queue is full: it stopped reading. Dropping keeps this thread responsive.
            counters.countDroppedReply()
        } catch {
            counters.countDroppedReply()
            logger.warning("reply not sent", metadata: ["error": "\(error)"])
        }
    }
}

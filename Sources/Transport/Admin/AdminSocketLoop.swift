import Foundation
import Logging
import WireJSON
import ZeroMQ

/// The admin endpoint's thread: owns its own context, the CURVE ROUTER socket and the ZAP
/// handler socket for their whole lives. Envelope errors are answered here; well-framed
/// requests go to the endpoint's tasks; their replies come back through the outbox.
final class AdminSocketLoop {
    private let context: ZMQContext
    private let router: ZMQSocket
    private let zap: ZMQSocket
    private let poller = ZMQPoller()
    private let authorizedKeys: ClientKeyList
    private let outbox: ReplyOutbox
    private let control: EndpointControl
    private let deliver: AsyncStream<(Envelope, AdminRequest)>.Continuation
    private let logger: Logger
    private var replies: [OutboundReply] = []
    private var frames: [[UInt8]] = []

    /// The bound address (with the real port for `:0`/`:*`).
    let boundEndpoint: String

    /// Admin requests are small; anything bigger is refused by the transport.
    static let maximumMessageSize: Int64 = 64 * 1024

    init(
        address: String, serverSecretKey: String, authorizedKeysPath: String, outbox: ReplyOutbox, control: EndpointControl,
        deliver: AsyncStream<(Envelope, AdminRequest)>.Continuation, logger: Logger
    ) throws(ZMQError) {
        // Its own context: the ZAP handler of a context sees every socket in it, and the
        // use-case endpoints must not be subject to the admin allow-list.
        let context = try ZMQContext()
        var opened: [ZMQSocket] = []
        do {
            let zap = try context.makeSocket(.rep)
            opened.append(zap)
            try zap.setLinger(0)
            _ = try zap.bind(ZMQ.zapEndpoint)
            let router = try context.makeSocket(.router)
            opened.append(router)
            try router.setLinger(500)
            try router.setMaxMessageSize(Self.maximumMessageSize)
            try router.setRouterMandatory(true)
            try router.setCurveServer(true)
            try router.setCurveSecretKey(serverSecretKey)
            try router.setHeartbeatInterval(2000)
            try router.setHeartbeatTimeout(6000)
            boundEndpoint = try router.bind(address)
            self.zap = zap
            self.router = router
        } catch {
            for socket in opened { socket.close() }
            context.terminate()
            throw error
        }
        self.context = context
        authorizedKeys = ClientKeyList(path: authorizedKeysPath)
        self.outbox = outbox
        self.control = control
        self.deliver = deliver
        self.logger = logger
        _ = poller.add(router, events: .pollIn)
        _ = poller.add(zap, events: .pollIn)
        _ = poller.add(fileDescriptor: outbox.wakeup.fileDescriptor, events: .pollIn)
    }

    /// Serves until a stop is requested; on a graceful stop it first answers what is queued.
    func run() {
        defer {
            router.close()
            zap.close()
            context.terminate()
            deliver.finish()
        }
        while true {
            switch control.state {
            case .aborting: return
            case .stopping:
                sendReplies()
                return
            case .running: break
            }
            // Block only when no reply is queued; a push writes the eventfd only while this
            // thread is announced as sleeping (see ReplyOutbox).
            let timeout = outbox.prepareToSleep() ? -1 : 0
            do {
                _ = try poller.poll(timeoutMilliseconds: timeout)
            } catch ZMQError.interrupted {
                outbox.awake()
                continue
            } catch {
                outbox.awake()
                logger.error("admin poll failed; admin endpoint stops", metadata: ["error": "\(error)"])
                return
            }
            outbox.awake()
            if poller.returnedEvents(at: 2).canReceive { _ = try? outbox.wakeup.drain() }
            if poller.returnedEvents(at: 1).canReceive { answerZAP() }
            sendReplies()
            if poller.returnedEvents(at: 0).canReceive { receiveRequests() }
        }
    }

    /// ZAP (RFC 27): allow CURVE clients whose public key is in the allow-list file.
    private func answerZAP() {
        while let frames = try? zap.receiveMultipart(dontWait: true) {
            let request = ZAPRequest(frames)
            let allowed = request.clientKey.map(authorizedKeys.allows) ?? false
            if !allowed {
                logger.warning("admin connection refused", metadata: ["mechanism": "\(request.mechanism)", "clientKey": "\(request.clientKey ?? "")"])
            }
            _ = try? zap.sendMultipart(request.reply(allowed: allowed, refusal: "client key not authorised"))
        }
    }

    private func receiveRequests() {
        for _ in 0..<64 {
            frames.removeAll(keepingCapacity: true)
            // nil: nothing queued (or the socket failed, which the next poll reports).
            guard (try? router.receiveMultipart(into: &frames, dontWait: true)) != nil else { return }
            // [routing id, (hops…,) empty delimiter, body]
            guard frames.count >= 3, let delimiter = frames.dropFirst().firstIndex(where: \.isEmpty) else {
                guard let routingId = frames.first else { continue }
                send(OutboundReply(envelope: Envelope(routingId: routingId, hops: []), body: WireReply.adminFailure(id: nil, error: WireError(.malformed, "expected an empty delimiter frame and one body frame"))))
                continue
            }
            let envelope = Envelope(routingId: frames[0], hops: Array(frames[1..<delimiter]))
            guard delimiter == frames.count - 2, !frames[frames.count - 1].isEmpty else {
                send(OutboundReply(envelope: envelope, body: WireReply.adminFailure(id: nil, error: WireError(.malformed, "expected exactly one non-empty body frame after the delimiter"))))
                continue
            }
            do {
                let request = try AdminRequest.decode(frames[frames.count - 1])
                deliver.yield((envelope, request))
            } catch {
                send(OutboundReply(envelope: envelope, body: WireReply.adminFailure(id: error.id, error: error.error)))
            }
        }
    }

    private func sendReplies() {
        outbox.takeAll(into: &replies)
        for reply in replies { send(reply) }
        replies.removeAll(keepingCapacity: true)
    }

    private func send(_ reply: OutboundReply) {
        var message = [reply.envelope.routingId]
        message += reply.envelope.hops
        message.append([])
        message.append(reply.body)
        do {
            try router.sendMultipart(message, dontWait: true)
        } catch {
            // The peer vanished (EHOSTUNREACH) or stopped reading (EAGAIN): the reply is dropped.
            logger.debug("admin reply dropped", metadata: ["error": "\(error)"])
        }
    }
}

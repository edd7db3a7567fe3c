import Logging
import WireContract
import ZeroMQ

/// The body of the live stream's dedicated thread: it owns the PUB socket for the socket's whole
/// life (created, bound, used and closed on this thread only), sends each batch the publishing
/// task hands over (``EventStreamOutbox``), and counts subscribers from the socket's monitor.
///
/// A PUB socket never blocks a send: a subscriber whose queue is full (its high-water mark) has
/// the message dropped, and reads what it missed from the event log. So a slow subscriber never
/// slows this thread, the publishing task or any writer.
final class EventStreamLoop {
    private let socket: ZMQSocket
    private let monitor: ZMQSocket
    private let poller = ZMQPoller()
    private let outbox: EventStreamOutbox
    private let recorder: EventStreamRecorder
    private let logger: Logger
    /// Connections accepted and not yet gone, by descriptor.
    private var connections: Set<UInt32> = []

    /// The address the socket is bound to (with the real port for a `:*` bind).
    let boundEndpoint: String

    init(
        context: ZMQContext, address: String, configuration: EndpointConfiguration, outbox: EventStreamOutbox, recorder: EventStreamRecorder,
        logger: Logger
    ) throws(ZMQError) {
        let socket = try context.makeSocket(.pub)
        let monitor: ZMQSocket
        do throws(ZMQError) {
            try socket.setLinger(configuration.lingerMilliseconds)
            // What a PUB receives is subscriptions: a few bytes each.
            try socket.setMaxMessageSize(64 * 1024)
            try socket.setSendHighWaterMark(configuration.sendHighWaterMark)
            try socket.setHeartbeatInterval(configuration.heartbeatIntervalMilliseconds)
            try socket.setHeartbeatTimeout(configuration.heartbeatTimeoutMilliseconds)
            if let secretKey = configuration.curveServerSecretKey {
                try socket.setCurveServer(true)
                try socket.setCurveSecretKey(secretKey)
                // The ZAP handler admits only callers allowed `events` on this domain.
                try socket.setZapDomain(CallerGrant.events)
            }
            let monitorAddress = "inproc://svc-event-stream-\(UInt64.random(in: 0...UInt64.max))"
            try socket.startMonitor(monitorAddress, events: [.accepted, .disconnected])
            monitor = try context.makeSocket(.pair)
            do throws(ZMQError) {
                try monitor.setLinger(0)
                try monitor.connect(monitorAddress)
                boundEndpoint = try socket.bind(address)
            } catch {
                monitor.close()
                throw error
            }
        } catch {
            socket.close()
            throw error
        }
        self.socket = socket
        self.monitor = monitor
        self.outbox = outbox
        self.recorder = recorder
        self.logger = logger
        _ = poller.add(fileDescriptor: outbox.wakeup.fileDescriptor, events: .pollIn)
        _ = poller.add(monitor, events: .pollIn)
    }

    /// Sends batches until the outbox is stopped; then closes the sockets.
    func run() {
        defer {
            // A batch handed over meanwhile is not sent: its task must still resume.
            outbox.take()?.sent()
            socket.close()
            monitor.close()
        }
        while true {
            do {
                _ = try poller.poll(timeoutMilliseconds: -1)
            } catch ZMQError.interrupted {
                continue
            } catch ZMQError.terminated {
                // Torn down (a start-up that failed elsewhere): not this loop's failure.
                logger.debug("context terminated; the live event stream stops")
                return
            } catch {
                logger.error("poll failed; the live event stream stops", metadata: ["error": "\(error)"])
                return
            }
            if poller.returnedEvents(at: 0).canReceive {
                _ = try? outbox.wakeup.drain()
            }
            if poller.returnedEvents(at: 1).canReceive {
                countConnections()
            }
            if outbox.isStopping { return }
            if let (messages, sent) = outbox.take() {
                for message in messages { publish(message) }
                sent()
            }
        }
    }

    private func publish(_ message: EventStreamOutbox.Message) {
        do {
            try socket.send(message.type, more: true, dontWait: true)
            try socket.send(message.body, dontWait: true)
        } catch {
            // A PUB socket drops rather than fails; anything else is worth a line, not a stop.
            logger.warning("publishing an event failed", metadata: ["error": "\(error)"])
        }
    }

    private func countConnections() {
        while let event = try? monitor.receiveMonitorEvent(dontWait: true) {
            if event.event == .accepted {
                connections.insert(event.value)
            } else if event.event == .disconnected {
                connections.remove(event.value)
            }
        }
        recorder.subscribers(connections.count)
    }
}

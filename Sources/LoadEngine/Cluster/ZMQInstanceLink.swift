import WireContract
import ZeroMQ

/// An ``InstanceLink`` through libzmq: a DEALER per use case and, when the run can move clients
/// to another instance, a monitor on one of them that reports when the connection drops (svcd
/// killed or stopped). Used on its load thread only.
final class ZMQInstanceLink: InstanceLink {
    let instance: Int
    /// The DEALER of each use case.
    private var byUseCase: [UseCaseName: ZMQSocket] = [:]
    /// Every DEALER, in creation order (for polling).
    private(set) var dealers: [ZMQSocket] = []
    private var monitor: ZMQSocket?
    private let poller = ZMQPoller()
    private var frames: [[UInt8]] = []

    /// Connects a DEALER to each of `useCases` that has an address; with `monitorEndpoint`, also
    /// watches the first one's connection. On failure, whatever was opened is closed.
    init(
        instance: Int, context: ZMQContext, addresses: [UseCaseName: String], credentials: CurveClientKeys?, useCases: [UseCaseName],
        sendHighWaterMark: Int32, monitorEndpoint: String?
    ) throws(ZMQError) {
        self.instance = instance
        do throws(ZMQError) {
            for useCase in useCases {
                guard let address = addresses[useCase] else { continue }
                let socket = try context.makeClientSocket(
                    connectingTo: address, curve: credentials, sendHighWaterMark: sendHighWaterMark
                ) { (socket: ZMQSocket) throws(ZMQError) in
                    guard let monitorEndpoint, monitor == nil else { return }
                    try socket.startMonitor(monitorEndpoint, events: [.disconnected])
                    let pair = try context.makeSocket(.pair)
                    monitor = pair
                    try pair.setLinger(0)
                    try pair.connect(monitorEndpoint)
                }
                dealers.append(socket)
                byUseCase[useCase] = socket
                poller.add(socket)
            }
        } catch {
            close()
            throw error
        }
    }

    func send(_ request: OutgoingRequest) -> InstanceLinkSend {
        guard let socket = byUseCase[request.useCase] else { return .noEndpoint }
        do throws(ZMQError) {
            try socket.sendMultipart([[], request.bytes], dontWait: true)
            return .queued
        } catch {
            // The socket's queue is full (requests that timed out while the service was gone may
            // still sit in it).
            return .notSent
        }
    }

    func flush() {}

    func receiveArrived(_ reply: (LentReply) -> Void) throws(ZMQError) {
        guard try poller.poll(timeoutMilliseconds: 0) > 0 else { return }
        for (index, socket) in dealers.enumerated() where poller.returnedEvents(at: index).contains(.pollIn) {
            while try socket.receiveMultipart(into: &frames, dontWait: true) != nil { Self.lend(frames, to: reply) }
        }
    }

    /// Lends `frames`, a reply as libzmq gave it, to `reply`.
    static func lend(_ frames: [[UInt8]], to reply: (LentReply) -> Void) {
        (frames.last ?? []).withUnsafeBytes { body in
            reply(LentReply(frameCount: frames.count, startsWithDelimiter: frames.first?.isEmpty ?? false, body: body))
        }
    }

    var pollableSockets: [ZMQSocket] { dealers }

    /// Whether the watched connection dropped since the last call (never without a monitor).
    func connectionLost() -> Bool {
        guard let monitor else { return false }
        var lost = false
        while let event = try? monitor.receiveMonitorEvent(dontWait: true) {
            if event.event == .disconnected { lost = true }
        }
        return lost
    }

    func close() {
        monitor?.close()
        monitor = nil
        poller.removeAll()
        for socket in dealers { socket.close() }
        dealers.removeAll()
        byUseCase.removeAll()
    }
}

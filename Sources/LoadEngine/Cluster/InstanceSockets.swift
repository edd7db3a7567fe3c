import WireContract
import ZeroMQ

/// One paced client's connections to one svcd instance: a DEALER per use case and, when the run
/// can move clients to another instance, a monitor on one of them that reports when the
/// connection drops (svcd killed or stopped). Used on the client's own thread only.
final class InstanceSockets {
    /// The instance's index in the cluster.
    let instance: Int
    /// The DEALER of each use case.
    private(set) var byUseCase: [UseCaseName: ZMQSocket] = [:]
    /// Every DEALER, in creation order (for polling).
    private(set) var dealers: [ZMQSocket] = []
    private var monitor: ZMQSocket?

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
            }
        } catch {
            close()
            throw error
        }
    }

    /// Whether the watched connection dropped since the last call (never without a monitor).
    func connectionLost() -> Bool {
        guard let monitor else { return false }
        var lost = false
        while let event = try? monitor.receiveMonitorEvent(dontWait: true) {
            if event.event == .disconnected { lost = true }
        }
        return lost
    }

    /// Closes every socket (replies still on their way are dropped).
    func close() {
        monitor?.close()
        monitor = nil
        for socket in dealers { socket.close() }
        dealers.removeAll()
        byUseCase.removeAll()
    }
}

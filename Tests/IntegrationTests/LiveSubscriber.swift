import Synchronization
import WireTestSupport
import ZeroMQ

/// A SUB socket on a thread of its own that records the type frame of every live message it
/// receives, until stopped.
final class LiveSubscriber: Sendable {
    private let address: String
    private let curve: CurveClient?
    private let types = Mutex<[String]>([])
    private let stopping = Atomic<Bool>(false)

    init(_ address: String, curve: CurveClient?) {
        self.address = address
        self.curve = curve
    }

    var received: [String] { types.withLock { $0 } }

    func start() {
        DedicatedThread.start(named: "test-sub") { [self] in
            guard let client = try? WireClient(.sub, connectTo: address, receiveTimeout: 100, curve: curve) else { return }
            defer { client.close() }
            try? client.socket.subscribe()
            while !stopping.load(ordering: .acquiring) {
                if let frames = try? client.receiveFrames(), let type = frames.first {
                    types.withLock { $0.append(String(decoding: type, as: UTF8.self)) }
                }
            }
        }
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Testing
import ZeroMQ
@testable import LoadEngine

/// ``ZMTPConnection`` against libzmq's own ROUTER: what svcd's endpoints are.
@Suite("A ZMTP connection of its own to a libzmq ROUTER")
struct ZMTPConnectionTests {
    /// A ROUTER bound to a free loopback port, and its address for a ZMTP connection.
    static func router(in context: ZMQContext, configure: (ZMQSocket) throws -> Void = { _ in }) throws -> (ZMQSocket, ZMTPAddress) {
        let router = try context.makeSocket(.router)
        try router.setLinger(0)
        try router.setReceiveTimeout(5_000)
        try configure(router)
        let endpoint = try router.bind("tcp://127.0.0.1:*")
        return (router, try #require(ZMTPAddress(endpoint)))
    }

    static func connect(_ address: ZMTPAddress) throws -> ZMTPConnection {
        try ZMTPConnection(connectingTo: address, timeoutMilliseconds: 5_000, maxMessageBytes: 1 << 20, queueLimitBytes: 1 << 20)
    }

    /// Calls `receive` until `done` holds or 5 s have passed; whether it held.
    static func receive(_ connection: ZMTPConnection, until done: () -> Bool, _ message: ([[UInt8]]) -> Void) throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !done() {
            guard ContinuousClock.now < deadline else { return false }
            try connection.receive { message($0.copied) }
        }
        return true
    }

    @Test func requestsReachTheRouterInOrderAndItsRepliesComeBack() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let (router, address) = try Self.router(in: context)
        defer { router.close() }
        let connection = try Self.connect(address)
        defer { connection.close() }

        // Short and long (8-byte size) bodies.
        let bodies = (0..<200).map { [UInt8](repeating: UInt8($0 % 251), count: $0 * 3) }
        for body in bodies { #expect(connection.queueRequest(body)) }
        #expect(connection.awaitingReplies == bodies.count)
        try connection.flush()
        for body in bodies {
            let request = try router.receiveMultipart()
            try #require(request.count == 3, "routing id, delimiter, body")
            #expect(request[1].isEmpty)
            #expect(request[2] == body)
            try router.sendMultipart([request[0], [], request[2].reversed()])
        }
        var replies: [[[UInt8]]] = []
        #expect(try Self.receive(connection, until: { replies.count == bodies.count }) { replies.append($0) })
        #expect(replies == bodies.map { [[], $0.reversed()] })
        #expect(connection.awaitingReplies == 0)
    }

    @Test func aPeerThatStopsReadingBoundsTheQueueAndGetsEveryRequestWhenItReadsAgain() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let (router, address) = try Self.router(in: context) { router in
            try router.setReceiveHighWaterMark(1)
            try router.setReceiveBufferSize(16_384)
        }
        defer { router.close() }
        let queueLimit = 256 << 10
        let connection = try ZMTPConnection(connectingTo: address, timeoutMilliseconds: 5_000, maxMessageBytes: 1 << 20, queueLimitBytes: queueLimit)
        defer { connection.close() }

        // The router reads nothing meanwhile: its queue and both kernel buffers fill, then the
        // connection's own queue, which takes no more past its limit.
        let body = [UInt8](repeating: 0x61, count: 1_000)
        var queued = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while connection.queueRequest(Array("\(queued)-".utf8) + body) {
            queued += 1
            try connection.flush()
            try #require(ContinuousClock.now < deadline, "the queue never filled")
        }
        #expect(connection.hasUnwrittenBytes)
        #expect(queued * body.count < queueLimit + 64 << 20, "bounded by the limit and the buffers")

        // Reading again, the router gets every request, in order, and nothing else.
        for number in 0..<queued {
            try connection.flush()
            let request = try router.receiveMultipart()
            #expect(request.last == Array("\(number)-".utf8) + body)
        }
        #expect(!connection.hasUnwrittenBytes)
    }

    @Test func theRoutersHeartbeatsAreAnsweredSoItKeepsTheConnection() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let (router, address) = try Self.router(in: context) { router in
            try router.setHeartbeatInterval(20)
            try router.setHeartbeatTimeout(60)
        }
        defer { router.close() }
        let connection = try Self.connect(address)
        defer { connection.close() }

        // Unanswered, a PING would end the connection 60 ms later; this waits out five of them.
        #expect(try Self.receive(connection, until: { connection.pingsAnswered >= 5 }) { _ in Issue.record("no message was sent") })
        #expect(connection.queueRequest(Array("still here".utf8)))
        try connection.flush()
        let request = try router.receiveMultipart()
        #expect(request.last == Array("still here".utf8))
    }

    @Test func anEndpointThatAsksForCurveIsRefusedSayingSo() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let keys = try ZMQCurveKeyPair.generate()
        let (router, address) = try Self.router(in: context) { router in
            try router.setCurveServer(true)
            try router.setCurveSecretKey(keys.secretKey)
        }
        defer { router.close() }
        let failure = #expect(throws: ZMTPFailure.self) { try Self.connect(address) }
        #expect(failure?.description.contains("CURVE") == true, "\(String(describing: failure))")
    }

    @Test func aPeerThatGoesAwayIsAFailureOfReceive() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let (router, address) = try Self.router(in: context)
        let connection = try Self.connect(address)
        defer { connection.close() }
        router.close()
        let deadline = ContinuousClock.now + .seconds(5)
        var failure: ZMTPFailure?
        while failure == nil, ContinuousClock.now < deadline {
            do throws(ZMTPFailure) { try connection.receive { _ in } } catch { failure = error }
        }
        #expect(failure != nil)
    }

    @Test func aPortNobodyListensOnIsRefusedAtOnce() throws {
        // A port held bound but not listening: no one else can take it meanwhile.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(holder >= 0)
        defer { _ = close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) == 0 && getsockname(holder, $0, &length) == 0 }
        }
        try #require(bound)
        let port = UInt16(bigEndian: address.sin_port)
        let failure = #expect(throws: ZMTPFailure.self) { try Self.connect(try #require(ZMTPAddress("tcp://127.0.0.1:\(port)"))) }
        #expect(failure?.description.contains("refused") == true, "\(String(describing: failure))")
    }
}

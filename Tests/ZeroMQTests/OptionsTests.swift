import Testing
import ZeroMQ

@Suite("Socket options")
struct OptionsTests {
    @Test("Heartbeat options are set and read back")
    func heartbeats() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeTestSocket(.router)
        defer { socket.close() }
        #expect(try socket.heartbeatInterval == 0, "off by default")

        try socket.setHeartbeatInterval(1_000)
        try socket.setHeartbeatTimeout(3_000)
        try socket.setHeartbeatTTL(5_000)
        #expect(try socket.heartbeatInterval == 1_000)
        #expect(try socket.heartbeatTimeout == 3_000)
        #expect(try socket.heartbeatTTL == 5_000)
        // libzmq stores the TTL in deciseconds.
        try socket.setHeartbeatTTL(1_234)
        #expect(try socket.heartbeatTTL == 1_200)
        #expect(throws: ZMQError.invalid) { try socket.setHeartbeatTTL(7_000_000) }
    }

    @Test("Queue, timeout, routing and security options are set and read back")
    func otherOptions() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.dealer)
        defer { socket.close() }
        #expect(socket.type == .dealer)
        #expect(try socket.maxMessageSize == -1, "no limit by default")
        #expect(try socket.routingId == [])

        try socket.setLinger(250)
        try socket.setMaxMessageSize(65_536)
        try socket.setSendHighWaterMark(10)
        try socket.setReceiveHighWaterMark(20)
        try socket.setImmediate(true)
        try socket.setRoutingId([1, 2, 3])
        try socket.setReceiveTimeout(150)
        try socket.setSendTimeout(750)
        try socket.setZapDomain("orders")
        try socket.setProbeRouter(true)

        #expect(try socket.linger == 250)
        #expect(try socket.maxMessageSize == 65_536)
        #expect(try socket.sendHighWaterMark == 10)
        #expect(try socket.receiveHighWaterMark == 20)
        #expect(try socket.immediate)
        #expect(try socket.routingId == [1, 2, 3])
        #expect(try socket.receiveTimeout == 150)
        #expect(try socket.sendTimeout == 750)
        #expect(try socket.zapDomain == "orders")
        #expect(try !socket.hasMore)
        #expect(try socket.events.canSend == false, "not connected: nothing can be queued")

        // ROUTER-only options are refused by other socket types.
        #expect(throws: ZMQError.invalid) { try socket.setRouterMandatory(true) }
        let router = try context.makeSocket(.router)
        defer { router.close() }
        try router.setRouterMandatory(true)
    }

    @Test("A non-blocky context gives new sockets linger 0 instead of -1")
    func blockyDefaultLinger() throws {
        let blocky = try ZMQContext()
        defer { blocky.terminate() }
        let nonBlocky = try ZMQContext(blocky: false)
        defer { nonBlocky.terminate() }
        let a = try blocky.makeSocket(.dealer)
        defer { a.close() }
        let b = try nonBlocky.makeSocket(.dealer)
        defer { b.close() }
        #expect(try a.linger == -1)
        #expect(try b.linger == 0)
    }

    @Test("SUB receives only subscribed prefixes")
    func subscriptions() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let endpoint = uniqueInproc("pubsub")
        let pub = try context.makeTestSocket(.pub)
        defer { pub.close() }
        try pub.bind(endpoint)
        let sub = try context.makeTestSocket(.sub)
        defer { sub.close() }
        try sub.subscribe(bytes("order."))
        try sub.connect(endpoint)

        // Subscriptions propagate asynchronously: publish until one arrives.
        let arrived = waitUntil {
            try? pub.send(bytes("menu.changed"))
            try? pub.send(bytes("order.placed"))
            return (try? sub.events.canReceive) == true
        }
        #expect(arrived)
        var topics = Set<String>()
        while let frame = try? sub.receive(dontWait: true) {
            topics.insert(String(decoding: frame.bytes, as: UTF8.self))
        }
        #expect(topics == ["order.placed"])
    }
}

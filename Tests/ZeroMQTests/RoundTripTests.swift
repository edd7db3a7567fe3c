import Testing
import ZeroMQ

@Suite("Round trips")
struct RoundTripTests {
    @Test("REQ → ROUTER → REQ over loopback TCP with a wildcard port")
    func reqRouterReq() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.makeTestSocket(.router)
        defer { router.close() }
        let endpoint = try router.bind(loopbackWildcard)
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        #expect(!endpoint.hasSuffix(":*"))
        #expect(try router.lastEndpoint == endpoint)

        let req = try context.makeTestSocket(.req)
        defer { req.close() }
        try req.connect(endpoint)
        try req.send(bytes("hello"))

        // ROUTER sees [routing id, empty delimiter, body].
        let request = try router.receiveMultipart()
        try #require(request.count == 3)
        #expect(!request[0].isEmpty)
        #expect(request[1].isEmpty)
        #expect(request[2] == bytes("hello"))

        try router.sendMultipart([request[0], [], bytes("world")])
        let reply = try req.receive()
        #expect(reply.bytes == bytes("world"))
        #expect(!reply.more)

        // REQ enforces send/receive alternation.
        #expect(throws: ZMQError.wrongState) { try req.receive(dontWait: true) }
    }

    @Test("One DEALER with 100 requests in flight, answered in reverse order")
    func dealerOutOfOrder() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.makeTestSocket(.router)
        defer { router.close() }
        let endpoint = try router.bind(loopbackWildcard)
        let dealer = try context.makeTestSocket(.dealer)
        defer { dealer.close() }
        try dealer.setRoutingId(bytes("client-7"))
        try dealer.connect(endpoint)

        let count = 100
        for i in 0..<count {
            try dealer.sendMultipart([[], bytes("request-\(i)")])
        }

        var pending: [(id: [UInt8], body: [UInt8])] = []
        var frames: [[UInt8]] = []
        for _ in 0..<count {
            let info = try #require(try router.receiveMultipart(into: &frames))
            #expect(info.frameCount == 3)
            #expect(!info.exceededLimit)
            try #require(frames.count == 3)
            #expect(frames[0] == bytes("client-7"))
            #expect(frames[1].isEmpty)
            pending.append((frames[0], frames[2]))
        }
        #expect(pending.map { String(decoding: $0.body, as: UTF8.self) } == (0..<count).map { "request-\($0)" })

        // Answer out of order: last request first.
        for (id, body) in pending.reversed() {
            try router.sendMultipart([id, [], bytes("reply-to-") + body])
        }
        var replies: [String] = []
        for _ in 0..<count {
            let reply = try dealer.receiveMultipart()
            try #require(reply.count == 2)
            #expect(reply[0].isEmpty)
            replies.append(String(decoding: reply[1], as: UTF8.self))
        }
        #expect(replies == (0..<count).reversed().map { "reply-to-request-\($0)" })
        #expect(throws: ZMQError.again) { try dealer.receive(dontWait: true) }
    }

    @Test("Multipart frames report `more` and ZMQ_RCVMORE frame by frame")
    func multipartHasMore() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let endpoint = uniqueInproc("multipart")
        let a = try context.makeTestSocket(.pair)
        defer { a.close() }
        try a.bind(endpoint)
        let b = try context.makeTestSocket(.pair)
        defer { b.close() }
        try b.connect(endpoint)

        try a.send(bytes("one"), more: true)
        try a.send(bytes("two"), more: true)
        try a.send(bytes("three"))
        try a.send(bytes("single"))

        let first = try b.receive()
        #expect(first == ZMQFrame(bytes: bytes("one"), more: true))
        #expect(try b.hasMore)
        let second = try b.receive()
        #expect(second == ZMQFrame(bytes: bytes("two"), more: true))
        #expect(try b.hasMore)
        let third = try b.receive()
        #expect(third == ZMQFrame(bytes: bytes("three"), more: false))
        #expect(try !b.hasMore)
        #expect(try b.receiveMultipart() == [bytes("single")])

        // Sending from non-Array collections: slices and UTF-8 views.
        let source = bytes("xxpayloadxx")
        try a.sendMultipart([source[2..<9], ArraySlice(bytes("tail"))])
        try a.send("utf8-view".utf8)
        #expect(try b.receiveMultipart() == [bytes("payload"), bytes("tail")])
        #expect(try b.receive().bytes == bytes("utf8-view"))

        #expect(throws: ZMQError.invalid) { try a.sendMultipart([[UInt8]]()) }
    }

    @Test("Frames of 0, 1, 33, 34, 1000 and 100 000 bytes round-trip byte-exact")
    func inlineAndHeapMessageSizes() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.makeTestSocket(.router)
        defer { router.close() }
        let endpoint = try router.bind(loopbackWildcard)
        let dealer = try context.makeTestSocket(.dealer)
        defer { dealer.close() }
        try dealer.connect(endpoint)

        let sizes = [0, 1, 33, 34, 1000, 100_000]
        // One message per size, through receive(), receiveMultipart() and the reusable array.
        var reused: [[UInt8]] = []
        for (index, size) in sizes.enumerated() {
            let payload = pattern(size, seed: UInt8(index))
            try dealer.send(payload)
            let message = try router.receiveMultipart()
            try #require(message.count == 2)
            #expect(message[1] == payload, "size \(size)")

            // Echo back, then receive on the DEALER frame by frame.
            try router.sendMultipart([message[0], payload])
            let echoed = try dealer.receive()
            #expect(echoed.bytes == payload, "size \(size)")
            #expect(!echoed.more)

            // And once more into the reused array (inner buffers overwritten in place).
            try dealer.send(payload)
            let info = try #require(try router.receiveMultipart(into: &reused))
            #expect(reused.count == 2)
            #expect(reused[1] == payload, "size \(size)")
            #expect(info.totalBytes == reused[0].count + size)
        }

        // All sizes as one multipart message, largest first so smaller frames land in
        // previously larger reused buffers.
        let frames = sizes.reversed().enumerated().map { pattern($0.element, seed: UInt8($0.offset + 100)) }
        try dealer.sendMultipart(frames)
        let info = try #require(try router.receiveMultipart(into: &reused))
        #expect(info.frameCount == frames.count + 1)
        #expect(Array(reused.dropFirst()) == frames)
        #expect(info.totalBytes == reused[0].count + sizes.reduce(0, +))
    }

    @Test("receiveMultipart(into:maxTotalBytes:) keeps the envelope and consumes the whole over-size message")
    func totalSizeLimit() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.makeTestSocket(.router)
        defer { router.close() }
        let endpoint = try router.bind(loopbackWildcard)
        let dealer = try context.makeTestSocket(.dealer)
        defer { dealer.close() }
        try dealer.setRoutingId(bytes("peer1"))
        try dealer.connect(endpoint)

        try dealer.sendMultipart([[], pattern(10), pattern(100)])
        try dealer.sendMultipart([[], bytes("next")])

        var frames: [[UInt8]] = []
        let info = try #require(try router.receiveMultipart(into: &frames, maxTotalBytes: 50))
        #expect(info == ZMQMessageInfo(frameCount: 4, totalBytes: 5 + 0 + 10 + 100, exceededLimit: true))
        #expect(frames == [bytes("peer1"), [], pattern(10)])

        // The rest of the over-size message was consumed: the next receive is the next message.
        let next = try #require(try router.receiveMultipart(into: &frames, maxTotalBytes: 50))
        #expect(!next.exceededLimit)
        #expect(frames == [bytes("peer1"), [], bytes("next")])
    }
}

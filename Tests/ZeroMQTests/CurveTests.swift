import Testing
import ZeroMQ

@Suite("CURVE and ZAP")
struct CurveTests {
    @Test("libzmq has CURVE and is at least 4.3")
    func capabilities() {
        #expect(ZMQ.hasCapability("curve"))
        #expect(!ZMQ.hasCapability("no-such-capability"))
        let version = ZMQ.version
        #expect(version.major > 4 || (version.major == 4 && version.minor >= 3))
        #expect(ZMQ.zapEndpoint == "inproc://zeromq.zap.01")
    }

    @Test("isKey accepts exactly 40 Z85 characters that decode to 32 bytes")
    func keyCheck() throws {
        let pair = try ZMQCurveKeyPair.generate()
        #expect(ZMQCurve.isKey(pair.publicKey) && ZMQCurve.isKey(pair.secretKey))
        #expect(!ZMQCurve.isKey(String(pair.publicKey.dropLast())))
        #expect(!ZMQCurve.isKey(pair.publicKey + "0"))
        #expect(!ZMQCurve.isKey(String(repeating: "~", count: 40)), "~ is not in the Z85 alphabet")
        #expect(!ZMQCurve.isKey(""))
    }

    @Test("Key pairs are 40-char Z85, distinct, and the public key derives from the secret")
    func keyPairs() throws {
        let first = try ZMQCurveKeyPair.generate()
        let second = try ZMQCurveKeyPair.generate()
        #expect(first.publicKey.utf8.count == 40)
        #expect(first.secretKey.utf8.count == 40)
        #expect(Z85.decode(first.publicKey)?.count == 32)
        #expect(Z85.decode(first.secretKey)?.count == 32)
        #expect(first != second)
        #expect(first.publicKey != first.secretKey)
        #expect(try ZMQCurve.publicKey(fromSecret: first.secretKey) == first.publicKey)
        #expect(try ZMQCurve.publicKey(fromSecret: second.secretKey) == second.publicKey)
        #expect(throws: ZMQError.invalid) { try ZMQCurve.publicKey(fromSecret: "too short") }
    }

    @Test("Z85 matches the RFC 32 test vector, round-trips and rejects malformed input")
    func z85() {
        let vector: [UInt8] = [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]
        #expect(Z85.encode(vector) == "HelloWorld")
        #expect(Z85.decode("HelloWorld") == vector)

        let random = pattern(32, seed: 9)
        let text = Z85.encode(random)
        #expect(text?.utf8.count == 40)
        #expect(text.flatMap(Z85.decode) == random)
        #expect(Z85.encode([]) == "")
        #expect(Z85.decode("") == [])

        #expect(Z85.encode([1, 2, 3]) == nil, "length must be a multiple of 4")
        #expect(Z85.decode("Hello") != nil)
        #expect(Z85.decode("Hell") == nil, "length must be a multiple of 5")
        #expect(Z85.decode("Hell\"") == nil, "'\"' is not in the Z85 alphabet")
        #expect(Z85.decode("Hell\u{0}") == nil)
    }

    @Test("Encrypted DEALER → ROUTER round trip with curveServer; a client with the wrong server key gets nowhere")
    func encryptedRoundTrip() throws {
        let serverKeys = try ZMQCurveKeyPair.generate()
        let clientKeys = try ZMQCurveKeyPair.generate()
        let context = try ZMQContext()
        defer { context.terminate() }

        let server = try context.makeTestSocket(.router)
        defer { server.close() }
        try server.setCurveServer(true)
        try server.setCurveSecretKey(serverKeys.secretKey)
        #expect(try server.curveServer)
        let endpoint = try server.bind(loopbackWildcard)

        let client = try context.makeTestSocket(.dealer)
        defer { client.close() }
        try client.setCurveServerKey(serverKeys.publicKey)
        try client.setCurvePublicKey(try #require(Z85.decode(clientKeys.publicKey)))  // binary form
        try client.setCurveSecretKey(clientKeys.secretKey)  // Z85 form
        #expect(try client.curveServerKey == Z85.decode(serverKeys.publicKey))
        #expect(try client.curvePublicKey == Z85.decode(clientKeys.publicKey))
        #expect(try !client.curveServer)
        try client.connect(endpoint)

        try client.sendMultipart([[], bytes("secret request")])
        let request = try server.receiveMultipart()
        try #require(request.count == 3)
        #expect(request[2] == bytes("secret request"))
        try server.sendMultipart([request[0], [], bytes("secret reply")])
        #expect(try client.receiveMultipart() == [[], bytes("secret reply")])

        // Wrong server key: the handshake fails, so the server never sees the message.
        let impostorKeys = try ZMQCurveKeyPair.generate()
        let confused = try context.makeTestSocket(.dealer, receiveTimeout: 300)
        defer { confused.close() }
        try confused.setCurveServerKey(impostorKeys.publicKey)
        try confused.setCurvePublicKey(clientKeys.publicKey)
        try confused.setCurveSecretKey(clientKeys.secretKey)
        try confused.connect(endpoint)
        try confused.sendMultipart([[], bytes("lost")])
        try server.setReceiveTimeout(300)
        var frames: [[UInt8]] = []
        #expect(try server.receiveMultipart(into: &frames) == nil)

        // Keys of the wrong size are rejected before reaching libzmq.
        #expect(throws: ZMQError.invalid) { try client.setCurvePublicKey([1, 2, 3]) }
        #expect(throws: ZMQError.invalid) { try client.setCurvePublicKey("not a z85 key") }
    }

    /// What the test ZAP handler saw for one request.
    struct ZapRecord: Sendable, Equatable {
        var domain: String
        var mechanism: String
        var clientKey: [UInt8]
        var allowed: Bool
    }

    @Test("A ZAP REP socket on its own thread admits an allow-listed CURVE key, whose messages carry its user id, and refuses another")
    func zapAllowList() throws {
        let serverKeys = try ZMQCurveKeyPair.generate()
        let trustedKeys = try ZMQCurveKeyPair.generate()
        let strangerKeys = try ZMQCurveKeyPair.generate()
        let trustedKey = try #require(Z85.decode(trustedKeys.publicKey))
        let strangerKey = try #require(Z85.decode(strangerKeys.publicKey))

        let context = try ZMQContext()
        defer { context.terminate() }
        let stop = try EventFD()
        defer { stop.close() }
        let handlerReady = Flag()
        let handlerError = Shared<ZMQError?>(nil)
        let records = Shared<[ZapRecord]>([])

        // The ZAP handler: binds the well-known endpoint, answers RFC 27 requests until stopped.
        let handler = TestThread {
            do throws(ZMQError) {
                let zap = try context.makeSocket(.rep)
                defer { zap.close() }
                try zap.setLinger(0)
                try zap.bind(ZMQ.zapEndpoint)
                handlerReady.set()
                let poller = ZMQPoller()
                let zapIndex = poller.add(zap)
                let stopIndex = poller.add(fileDescriptor: stop.fileDescriptor)
                var request: [[UInt8]] = []
                while true {
                    try poller.poll(timeoutMilliseconds: -1)
                    if poller.returnedEvents(at: stopIndex).canReceive { return }
                    guard poller.returnedEvents(at: zapIndex).canReceive else { continue }
                    guard try zap.receiveMultipart(into: &request) != nil else { continue }
                    guard request.count >= 6, request[0] == bytes("1.0") else {
                        throw ZMQError.wrongState
                    }
                    let domain = String(decoding: request[2], as: UTF8.self)
                    let mechanism = String(decoding: request[5], as: UTF8.self)
                    let key = request.count > 6 ? request[6] : []
                    let allowed = domain == "admin" && mechanism == "CURVE" && key == trustedKey
                    records.update { $0.append(ZapRecord(domain: domain, mechanism: mechanism, clientKey: key, allowed: allowed)) }
                    try zap.sendMultipart([
                        bytes("1.0"), request[1],
                        bytes(allowed ? "200" : "400"), bytes(allowed ? "OK" : "not on the allow-list"),
                        allowed ? bytes("admin-user") : [], [],
                    ])
                }
            } catch {
                handlerError.set(error)
                handlerReady.set()
            }
        }
        defer {
            try? stop.signal()
            handler.join()
        }

        // The handler must be bound before the server accepts connections.
        #expect(waitUntil { handlerReady.isSet })
        try #require(handlerError.value == nil)

        let server = try context.makeTestSocket(.router)
        defer { server.close() }
        try server.setCurveServer(true)
        try server.setCurveSecretKey(serverKeys.secretKey)
        try server.setZapDomain("admin")
        #expect(try server.zapDomain == "admin")
        let endpoint = try server.bind(loopbackWildcard)

        func makeClient(_ keys: ZMQCurveKeyPair, receiveTimeout: Int32) throws -> ZMQSocket {
            let client = try context.makeTestSocket(.dealer, receiveTimeout: receiveTimeout)
            try client.setCurveServerKey(serverKeys.publicKey)
            try client.setCurvePublicKey(keys.publicKey)
            try client.setCurveSecretKey(keys.secretKey)
            try client.connect(endpoint)
            return client
        }

        // Allow-listed client: full round trip.
        let trusted = try makeClient(trustedKeys, receiveTimeout: testTimeout)
        defer { trusted.close() }
        try trusted.send(bytes("let me in"))
        let request = try server.receiveMultipart()
        try #require(request.count == 2)
        #expect(request[1] == bytes("let me in"))
        try server.sendMultipart([request[0], bytes("welcome")])
        #expect(try trusted.receive().bytes == bytes("welcome"))
        // Each message carries the user id the handler answered for its connection (a ROUTER's
        // own routing-id frame carries none; the peer's frames do).
        try trusted.send(bytes("who am I"))
        var userId: String?
        var received: [[UInt8]] = []
        #expect(try server.receiveMultipart(into: &received, userId: &userId) != nil)
        #expect(received.last == bytes("who am I") && userId == "admin-user")

        // Unknown key: ZAP denies it, so nothing reaches the server or comes back.
        let stranger = try makeClient(strangerKeys, receiveTimeout: 300)
        defer { stranger.close() }
        try stranger.send(bytes("let me in too"))
        #expect(waitUntil { records.value.contains { $0.clientKey == strangerKey } })
        try server.setReceiveTimeout(300)
        var frames: [[UInt8]] = []
        #expect(try server.receiveMultipart(into: &frames) == nil)
        #expect(throws: ZMQError.again) { try stranger.receive() }

        let seen = records.value
        #expect(seen.filter(\.allowed).map(\.clientKey) == [trustedKey])
        #expect(!seen.isEmpty && seen.allSatisfy { $0.domain == "admin" && $0.mechanism == "CURVE" })
        #expect(seen.filter { !$0.allowed }.allSatisfy { $0.clientKey == strangerKey })
        #expect(handlerError.value == nil)
    }
}

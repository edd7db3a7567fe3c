import Foundation
import RestaurantClient
import Synchronization
import Testing
import SvcdTestSupport
import WireContract
import WireJSON
import WireTestSupport
import ZeroMQ


/// svcd with `--client-keys FILE`, tried from outside as its clients would: only keys listed in
/// FILE get a connection (plaintext, unknown and revoked clients get no reply and change
/// nothing), a key added to FILE works without a restart, every use case answers over CURVE, and
/// garbage before or after a good handshake does not hurt it.
@Suite struct CurveEndpointTests {
    /// A running CURVE svcd with one listed key, and the file listing it.
    private struct CurveService {
        let child: SvcdChild
        let endpoints: EndpointsFile
        let serverKey: String
        let listed: ZMQCurveKeyPair
        let keysFile: String

        func client(_ keys: ZMQCurveKeyPair) -> CurveClient { CurveClient(serverKey: serverKey, keys: keys) }
    }

    private func withCurveSvcd<T>(arguments: [String] = [], _ body: (CurveService) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("integration-curve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listed = try ZMQCurveKeyPair.generate()
        let keysFile = directory + "/client_keys"
        // The comment line starts with '#'; the key line after it may contain '#' anywhere.
        try "# clients allowed on the use-case endpoints\n\(listed.publicKey)\n".write(toFile: keysFile, atomically: true, encoding: .utf8)
        let child = try await SvcdChild.launch(seed: true, arguments: ["--client-keys", keysFile] + arguments)
        do {
            let endpoints = try await child.endpoints()
            let serverKey = try #require(endpoints.useCaseServerKey, "endpoints.json publishes useCaseServerKey")
            let result = try await body(CurveService(child: child, endpoints: endpoints, serverKey: serverKey, listed: listed, keysFile: keysFile))
            await child.stop()
            return result
        } catch {
            await child.stop()
            throw error
        }
    }

    /// Whether a request on a fresh connection with `curve` (plaintext when `nil`) gets any reply
    /// within `milliseconds`.
    private func answered(_ address: String, _ body: [UInt8], curve: CurveClient?, within milliseconds: Int32) async throws -> Reply? {
        try await withClient(.dealer, address, receiveTimeout: milliseconds, curve: curve) { client in
            try client.send(body: body)
            return try client.receiveReply()
        }
    }

    @Test func aListedKeyReachesEveryUseCaseOverCurve() async throws {
        try await withCurveSvcd { service in
            #expect(service.endpoints.useCases.count == UseCaseName.allCases.count)
            for useCase in UseCaseName.allCases {
                let id = "curve-\(useCase)"
                let reply = try await call(try service.endpoints.address(useCase), request(id: id, params: [:]), curve: service.client(service.listed))
                #expect(reply.id == .string(id), "\(useCase): \(reply)")
                #expect(reply.ok == true || contractErrorCodes.contains(reply.code ?? ""), "\(useCase): \(reply)")
            }
        }
    }

    /// Both event endpoints are CURVE servers with the use cases' allow-list: a listed key reads
    /// the log and receives live events; an unlisted key and a plaintext client get neither.
    @Test func theEventEndpointsAdmitOnlyListedKeys() async throws {
        try await withCurveSvcd { service in
            let log = try #require(service.endpoints.eventLog), stream = try #require(service.endpoints.events)
            let stranger = try ZMQCurveKeyPair.generate()
            let listedSubscriber = LiveSubscriber(stream, curve: service.client(service.listed))
            let strangerSubscriber = LiveSubscriber(stream, curve: service.client(stranger))
            let plaintextSubscriber = LiveSubscriber(stream, curve: nil)
            let subscribers = [listedSubscriber, strangerSubscriber, plaintextSubscriber]
            for subscriber in subscribers { subscriber.start() }
            defer { for subscriber in subscribers { subscriber.stop() } }
            // Written until the listed subscriber hears one (its subscription takes a moment).
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            var written = 0
            while listedSubscriber.received.isEmpty, ContinuousClock.now < deadline {
                let reply = try await call(try service.endpoints.address(.registerUser), request(id: "w", params: [
                    "name": "Curve", "email": .string(uniqueEmail("curve-events")),
                ]), curve: service.client(service.listed))
                #expect(reply.ok == true, "\(reply)")
                written += 1
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(!listedSubscriber.received.isEmpty, "a listed key receives live events")
            let read = try await answered(log, request(id: "log", params: ["after": 0]), curve: service.client(service.listed), within: 5000)
            #expect(read?.result?["events"]?.arrayValue?.count == written && read?.result?["lastSeq"]?.intValue == written, "\(String(describing: read))")
            #expect(try await answered(log, request(id: "log", params: ["after": 0]), curve: service.client(stranger), within: 1000) == nil)
            #expect(try await answered(log, request(id: "log", params: ["after": 0]), curve: nil, within: 1000) == nil)
            #expect(strangerSubscriber.received.isEmpty && plaintextSubscriber.received.isEmpty, "unlisted and plaintext subscribers hear nothing")
        }
    }

    @Test func plaintextUnknownAndRevokedClientsGetNothingAndChangeNothing() async throws {
        try await withCurveSvcd(arguments: ["--http-port", "0"]) { service in
            let httpPort = try service.endpoints.httpPort()
            let register = try service.endpoints.address(.registerUser)
            let email = uniqueEmail("refused")
            let registration = request(id: "refused", params: ["name": "Mallory", "email": .string(email)])
            let plaintext = try await answered(register, registration, curve: nil, within: 1500)
            #expect(plaintext == nil, "a plaintext client must get nothing: \(String(describing: plaintext))")
            let stranger = try ZMQCurveKeyPair.generate()
            let unknown = try await answered(register, registration, curve: service.client(stranger), within: 1500)
            #expect(unknown == nil, "an unlisted key must get nothing: \(String(describing: unknown))")

            // A second key works while listed, and gets nothing once its line is removed.
            let revoked = try ZMQCurveKeyPair.generate()
            try "\(service.listed.publicKey)\n\(revoked.publicKey)\n".write(toFile: service.keysFile, atomically: true, encoding: .utf8)
            let restaurant = request(id: "while-listed", params: ["restaurantId": "r-000001"])
            let whileListed = try await answered(try service.endpoints.address(.getRestaurant), restaurant, curve: service.client(revoked), within: 5000)
            #expect(whileListed?.ok == true, "a listed key is served: \(String(describing: whileListed))")
            try "\(service.listed.publicKey)\n".write(toFile: service.keysFile, atomically: true, encoding: .utf8)
            let afterRevocation = try await answered(register, registration, curve: service.client(revoked), within: 1500)
            #expect(afterRevocation == nil, "a revoked key must get nothing on a new connection")

            // None of the refused registrations happened: the address is still free.
            let accepted = try await call(register, registration, curve: service.client(service.listed))
            #expect(accepted.ok == true, "the refused registrations must not have registered \(email): \(accepted)")

            let stats = try await runTool(try ExecutableLocator.svcctl(), ["stats", "--json", "--data-dir", service.child.dataDirectory], timeout: 20)
            let refused = try JSONParser.parse(Array(stats.stdout.utf8))["refusedClients"]?.intValue
            #expect((refused ?? 0) >= 3, "the plaintext client, the unknown and the revoked key are counted: \(stats)")
            let metrics = try await HTTPProbe.request(port: httpPort, path: "/metrics")
            let counted = metrics.body.split(separator: "\n").first { $0.hasPrefix("svc_refused_clients_total ") }
            #expect(counted.flatMap { Int($0.split(separator: " ").last ?? "") } == refused, "/metrics counts the same refusals: \(String(describing: counted))")
            #expect(service.child.stderrText.contains("client refused on a use-case endpoint"), "a warning names the refusal")
            // Rate-limited: the first refusal (the plaintext client's) is the one logged.
            #expect(service.child.stderrText.contains("its handshake failed"), "\(service.child.stderrText.suffix(1500))")
            #expect(service.child.stderrText.contains("tcp://127.0.0.1:"), "the warning names the address")
        }
    }

    @Test func aKeyAddedToTheListWorksWithinSecondsWithoutARestart() async throws {
        try await withCurveSvcd { service in
            let address = try service.endpoints.address(.getRestaurant)
            let newcomer = try ZMQCurveKeyPair.generate()
            let body = request(id: "newcomer", params: ["restaurantId": "r-000002"])
            #expect(try await answered(address, body, curve: service.client(newcomer), within: 1000) == nil)
            let handle = try #require(FileHandle(forWritingAtPath: service.keysFile))
            handle.seekToEndOfFile()
            handle.write(Data("\(newcomer.publicKey)\n".utf8))
            try handle.close()
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(10))
            var reply: Reply?
            while reply == nil, clock.now < deadline {
                reply = try await answered(address, body, curve: service.client(newcomer), within: 500)
            }
            #expect(reply?.ok == true, "the added key is served without a restart")
            #expect(service.child.isRunning)
        }
    }

    @Test func theSwiftClientCallsACurveSvcdWithItsKeyFiles() async throws {
        try await withCurveSvcd { service in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("integration-client-keys-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try "\(service.listed.publicKey)\n".write(toFile: directory + "/me.public", atomically: true, encoding: .utf8)
            try "\(service.listed.secretKey)\n".write(toFile: directory + "/me.secret", atomically: true, encoding: .utf8)
            var options = RestaurantClientOptions(timeout: .seconds(5))
            options.clientKeys = try ClientKeys(publicKeyFile: directory + "/me.public", secretKeyFile: directory + "/me.secret")
            let endpointsFile = service.child.dataDirectory + "/endpoints.json"
            let client = try RestaurantClient(endpointsFile: endpointsFile, options: options)
            #expect(try await client.getRestaurant(id: "r-000001").id == "r-000001")
            let email = uniqueEmail("swift-curve")
            #expect(try await client.registerUser(name: "Swift", email: email).email == email)

            // Without keys the client says what is missing instead of waiting for silence.
            let keyless = try RestaurantClient(endpointsFile: endpointsFile, options: RestaurantClientOptions(timeout: .seconds(2)))
            do {
                _ = try await keyless.getRestaurant(id: "r-000001")
                Issue.record("a client without keys must not reach a CURVE svcd")
            } catch {
                #expect("\(error)".contains("clientKeys"), "\(error)")
            }
        }
    }

    @Test func badHandshakesAndGarbageAfterAGoodOneLeaveTheCurveEndpointServing() async throws {
        try await withCurveSvcd { service in
            let address = try service.endpoints.address(.getMenu)
            let port = try #require(UInt16(address.split(separator: ":").last ?? ""))
            // Bad handshakes on raw TCP: noise, a plaintext (NULL) greeting, a cut-off greeting.
            var random = SystemRandomNumberGenerator()
            let nullGreeting: [UInt8] = [0xFF] + [UInt8](repeating: 0, count: 8) + [0x7F, 3, 0] + Array("NULL".utf8)
                + [UInt8](repeating: 0, count: 16) + [0] + [UInt8](repeating: 0, count: 31)
            var handshakes: [[UInt8]] = [nullGreeting, Array(nullGreeting.prefix(11)), []]
            for _ in 0..<20 { handshakes.append((0..<Int.random(in: 1...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }) }
            for bytes in handshakes { try sendRaw(bytes, toPort: port) }

            // Garbage after a good handshake: every message still gets the contract's answer.
            var frameSets: [[[UInt8]]] = []
            for index in 0..<100 {
                let junk = (0..<Int.random(in: 1...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                frameSets.append(index.isMultiple(of: 2) ? [[], junk] : [junk])
            }
            let sets = frameSets
            let replies = try await withClient(.dealer, address, curve: service.client(service.listed)) { client in
                for frames in sets { try client.send(frames: frames) }
                return try client.receiveReplies(upTo: sets.count)
            }
            #expect(replies.count == frameSets.count, "every garbage message over CURVE gets one reply")
            #expect(replies.allSatisfy { $0.code == "malformed" || $0.code == "unsupported_version" }, "\(replies.prefix(3))")

            let after = try await call(address, request(id: "after", params: ["restaurantId": "r-000001"]), curve: service.client(service.listed))
            #expect(after.ok == true, "\(after)")
            #expect(service.child.isRunning)
        }
    }

    @Test func svcdOnANonLoopbackAddressNeedsClientKeysOrAnExplicitPlaintextFlag() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("integration-host-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let refused = try await runTool(try ExecutableLocator.svcd(), ["--host", "0.0.0.0", "--port-base", "0", "--data-dir", directory], timeout: 15)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("--host 0.0.0.0 is not a loopback address"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--client-keys") && refused.stderr.contains("--allow-plaintext"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/endpoints.json"))

        let plaintext = try await SvcdChild.launch(seed: false, arguments: ["--host", "0.0.0.0", "--allow-plaintext"])
        let plainEndpoints = try await plaintext.endpoints()
        #expect(plainEndpoints.useCaseServerKey == nil)
        await plaintext.stop()

        let keys = try ZMQCurveKeyPair.generate()
        let keysFile = directory + "-keys"
        try "\(keys.publicKey)\n".write(toFile: keysFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: keysFile) }
        let curve = try await SvcdChild.launch(seed: false, arguments: ["--host", "0.0.0.0", "--client-keys", keysFile])
        let curveEndpoints = try await curve.endpoints()
        #expect(curveEndpoints.useCaseServerKey?.utf8.count == 40)
        #expect(try curveEndpoints.address(.getRestaurant).hasPrefix("tcp://0.0.0.0:"))
        await curve.stop()
    }
}

/// Connects to 127.0.0.1:`port` over plain TCP, writes `bytes`, reads whatever comes back for a
/// moment, and closes.
private func sendRaw(_ bytes: [UInt8], toPort port: UInt16) throws {
    let socket = try LoopbackSocket.connected(to: "127.0.0.1", port: Int(port), timeout: 0.2)
    defer { socket.close() }
    // svcd may drop the connection at once: a failed send or read is what it may do.
    if !bytes.isEmpty { try? socket.send(bytes) }
    _ = try? socket.receiveUntilClosed()
}

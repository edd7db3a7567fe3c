import Foundation
import Testing
import SvcdTestSupport
import WireContract
import WireJSON
import WireTestSupport
import ZeroMQ

/// How an admin client authenticates.
private enum AdminCredentials: Sendable {
    /// The local admin key pair svcd created in its data directory.
    case localAdmin
    /// No CURVE at all.
    case plaintext
    /// A CURVE key pair the service does not know, or one added later.
    case pair(ZMQCurveKeyPair)
}

/// One admin request on a fresh DEALER; `nil` when no reply came within `timeout` ms.
private func admin(
    _ endpoints: EndpointsFile, _ op: String, _ params: JSONValue = [:], as credentials: AdminCredentials = .localAdmin,
    timeout: Int32 = 5000, body rawBody: [UInt8]? = nil
) async throws -> Reply? {
    let address = try #require(endpoints.admin)
    let serverKey = try #require(endpoints.adminServerKey)
    let keyPair: ZMQCurveKeyPair?
    switch credentials {
    case .localAdmin:
        keyPair = try localAdminKeys(endpoints)
    case .plaintext: keyPair = nil
    case .pair(let pair): keyPair = pair
    }
    let body = rawBody ?? JSONValue.object(JSONObject([("v", 1), ("id", .string(op)), ("op", .string(op)), ("params", params)])).encoded()
    return try await onThread { try adminBlocking(address: address, serverKey: serverKey, keyPair: keyPair, body: body, timeout: timeout) }
}

/// One admin request on a fresh DEALER, on the calling thread (which it blocks).
private func adminBlocking(address: String, serverKey: String, keyPair: ZMQCurveKeyPair?, body: [UInt8], timeout: Int32) throws -> Reply? {
    try dealerCall(address, body, receiveTimeout: timeout) { socket in
        if let keyPair {
            try socket.setCurveClient(serverKey: serverKey, publicKey: keyPair.publicKey, secretKey: keyPair.secretKey)
        }
    }
}

/// The local admin key pair named in `endpoints.json`.
private func localAdminKeys(_ endpoints: EndpointsFile) throws -> ZMQCurveKeyPair {
    let publicFile = try #require(endpoints.adminClientPublicKeyFile)
    let secretFile = try #require(endpoints.adminClientSecretKeyFile)
    return ZMQCurveKeyPair(
        publicKey: try String(contentsOfFile: publicFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
        secretKey: try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    )
}

/// The admin endpoint of a real svcd: CURVE with an allow-list, and every operation.
@Suite struct AdminEndpointTests {
    @Test func plaintextAndUnknownKeysGetNothingAndTheLocalAdminKeyIsServed() async throws {
        try await withSvcd(seed: false) { child in
            let endpoints = try await child.endpoints()
            #expect(try await admin(endpoints, "status", as: .plaintext, timeout: 1500) == nil, "a plaintext peer gets no answer")
            let stranger = try ZMQCurveKeyPair.generate()
            #expect(try await admin(endpoints, "status", as: .pair(stranger), timeout: 1500) == nil, "an unknown key gets no answer")
            let status = try #require(try await admin(endpoints, "status"))
            #expect(status.ok == true, "\(status)")
            #expect(status.result?["state"] == "running")
            #expect(status.result?["pid"]?.intValue == Int(child.pid))
            #expect(status.result?["version"]?.stringValue?.isEmpty == false)
            #expect((status.result?["uptimeSeconds"]?.intValue ?? -1) >= 0)
            #expect(status.result?["taxRate"] == "0.08", "svcd's default tax rate")
        }
    }

    @Test func aKeyAddedToTheAllowListIsServedWithoutARestart() async throws {
        try await withSvcd(seed: false) { child in
            let endpoints = try await child.endpoints()
            let newcomer = try ZMQCurveKeyPair.generate()
            #expect(try await admin(endpoints, "status", as: .pair(newcomer), timeout: 1500) == nil)
            let allowList = child.dataDirectory + "/keys/authorized_keys"
            let handle = try #require(FileHandle(forWritingAtPath: allowList))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data((newcomer.publicKey + "\n").utf8))
            try handle.close()
            let status = try #require(try await admin(endpoints, "status", as: .pair(newcomer)))
            #expect(status.ok == true)
        }
    }

    @Test func drainMakesUseCasesAnswerUnavailableAndResumeRestoresThem() async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            let get = request(id: "g", params: ["restaurantId": "r-000001"])
            #expect(try await call(try endpoints.address(.getRestaurant), get).ok == true)
            let drained = try #require(try await admin(endpoints, "drain"))
            #expect(drained.result?["state"] == "draining")
            #expect(try await admin(endpoints, "status")?.result?["state"] == "draining")
            let refused = try await call(try endpoints.address(.getRestaurant), get)
            #expect(refused.code == "unavailable", "\(refused)")
            #expect(try await call(try endpoints.address(.registerUser), request(params: ["name": "D", "email": .string(uniqueEmail("drain"))])).code == "unavailable")
            let resumed = try #require(try await admin(endpoints, "resume"))
            #expect(resumed.result?["state"] == "running")
            #expect(try await call(try endpoints.address(.getRestaurant), get).ok == true)
        }
    }

    @Test func describeListsEveryUseCaseEventAndCodeOfTheContractAndSvcctlPrintsThem() async throws {
        try await withSvcd(seed: false) { child in
            let endpoints = try await child.endpoints()
            let described = try #require(try await admin(endpoints, "describe")?.result)
            #expect(described["protocol"] == 1)
            let useCases = try #require(described["useCases"]?.arrayValue)
            #expect(useCases.map { $0["name"]?.stringValue } == UseCaseName.allCases.map(\.rawValue), "in endpoint order")
            for (entry, name) in zip(useCases, UseCaseName.allCases) {
                #expect(entry["write"]?.boolValue == name.writes, "\(name)")
                #expect(entry["params"]?["$schema"] == "https://json-schema.org/draft/2020-12/schema", "\(name)")
                #expect(entry["params"]?["type"] == "object" && entry["result"]?["type"] == "object", "\(name)")
                #expect((entry["result"]?["required"]?.arrayValue ?? []).isEmpty == false, "\(name): a result schema requires its members")
                let errors = (entry["errors"]?.arrayValue ?? []).compactMap(\.stringValue)
                #expect(errors.contains("invalid_input") && errors.contains("overloaded") && !errors.contains("gone"), "\(name): \(errors)")
                #expect(errors.contains("conflict") == name.writes, "\(name): a write may find its idempotency key bound to another request: \(errors)")
            }
            #expect(described["events"]?.arrayValue?.map { $0["type"]?.stringValue } == EventType.allCases.map(\.rawValue))
            #expect(described["eventLog"]?["params"]?["required"] == ["after"])
            #expect(described["errorCodes"]?.arrayValue?.compactMap(\.stringValue) == WireErrorCode.allCases.map(\.rawValue))

            let table = try await runTool(try ExecutableLocator.svcctl(), ["describe", "--data-dir", child.dataDirectory], timeout: 20)
            #expect(table.status == 0 && table.stdout.contains("CancelOrder") && table.stdout.contains("orderId, userId"), "\(table)")
            let one = try await runTool(try ExecutableLocator.svcctl(), ["describe", "PlaceOrder", "--json", "--data-dir", child.dataDirectory], timeout: 20)
            #expect(one.status == 0, "\(one)")
            #expect(try JSONParser.parse(one.stdout) == useCases[UseCaseName.placeOrder.portOffset - 1])
            let human = try await runTool(try ExecutableLocator.svcctl(), ["describe", "PlaceOrder", "--data-dir", child.dataDirectory], timeout: 20)
            #expect(human.status == 0 && human.stdout.contains("deliveryAddress") && human.stdout.contains("business_rule"), "\(human)")
            let unknown = try await runTool(try ExecutableLocator.svcctl(), ["describe", "Teleport", "--data-dir", child.dataDirectory], timeout: 20)
            #expect(unknown.status == 64 && unknown.stderr.contains("unknown use case"), "\(unknown)")
        }
    }

    @Test func endpointsHealthAndLogLevelAnswer() async throws {
        try await withSvcd(seed: false) { child in
            let endpoints = try await child.endpoints()
            let listed = try #require(try await admin(endpoints, "endpoints"))
            #expect(listed.result?["admin"]?.stringValue == endpoints.admin)
            #expect(listed.result?["useCases"]?.objectValue?.count == UseCaseName.allCases.count)
            #expect(listed.result?["useCases"]?["PlaceOrder"]?.stringValue == endpoints.useCases[.placeOrder])
            let health = try #require(try await admin(endpoints, "health"))
            #expect(health.result?["healthy"] == true, "\(health)")
            #expect(try await admin(endpoints, "setLogLevel", ["level": "debug"])?.result?["level"] == "debug")
            #expect(try await admin(endpoints, "setLogLevel", ["level": "loud"])?.code == "invalid_input")
            #expect(try await admin(endpoints, "frobnicate")?.code == "invalid_input")
            // The envelope rules of the use-case endpoints, with the id echoed.
            let version = try #require(try await admin(endpoints, "status", body: Array(#"{"v":2,"id":"x","op":"status"}"#.utf8)))
            #expect(version.code == "unsupported_version" && version.id == "x", "\(version)")
            let noOp = try #require(try await admin(endpoints, "status", body: Array(#"{"v":1,"id":"y","params":{}}"#.utf8)))
            #expect(noOp.code == "invalid_input" && noOp.id == "y", "\(noOp)")
            let notJSON = try #require(try await admin(endpoints, "status", body: Array("{oops".utf8)))
            #expect(notJSON.code == "malformed" && notJSON.id == .null, "\(notJSON)")
        }
    }

    @Test func backupWritesAConsistentCopyAndNeverOverwrites() async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            let target = URL(fileURLWithPath: child.dataDirectory).deletingLastPathComponent().appendingPathComponent("backup.sqlite").path
            let backup = try #require(try await admin(endpoints, "backup", ["path": .string(target)]))
            #expect(backup.ok == true, "\(backup)")
            #expect(backup.result?["path"] == .string(target))
            #expect((backup.result?["bytes"]?.intValue ?? 0) > 0)
            let integrity = try await runTool("/usr/bin/env", ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA integrity_check').fetchone()[0], c.execute('select count(*) from restaurants').fetchone()[0])", target], timeout: 30)
            #expect(integrity.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok 300", "\(integrity.stdout) \(integrity.stderr)")
            #expect(try await admin(endpoints, "backup", ["path": .string(target)])?.code == "invalid_input", "an existing file is never overwritten")
            #expect(try await admin(endpoints, "backup", ["path": "relative.sqlite"])?.code == "invalid_input")
        }
    }

    @Test func backupCreatesMissingDirectoriesAndRefusesOneItCannotMakeNamingIt() async throws {
        try await withSvcd(seed: false) { child in
            let endpoints = try await child.endpoints()
            let root = URL(fileURLWithPath: child.dataDirectory).deletingLastPathComponent().path
            let nested = root + "/backups/2026/11/store.sqlite"
            let made = try #require(try await admin(endpoints, "backup", ["path": .string(nested)]))
            #expect(made.ok == true, "\(made)")
            #expect(FileManager.default.fileExists(atPath: nested))
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: root + "/backups")[.posixPermissions] as? Int)
            #expect(mode == 0o700, "created directories are svcd's user's alone: \(String(mode, radix: 8))")

            let file = root + "/a-file"
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            let refused = try #require(try await admin(endpoints, "backup", ["path": .string(file + "/inside/store.sqlite")]))
            #expect(refused.code == "invalid_input", "\(refused)")
            #expect(refused.message?.contains("cannot create the directory \(file)/inside") == true, "\(refused)")
        }
    }

    @Test func shutdownAnswersEveryRequestInFlightThenSvcdExitsZero() async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            let address = try endpoints.address(.registerUser)
            let count = 300
            let adminAddress = try #require(endpoints.admin)
            let serverKey = try #require(endpoints.adminServerKey)
            let keys = try localAdminKeys(endpoints)
            // Pipeline writes on one DEALER; once the first is answered (so svcd is taking them),
            // ask for the shutdown while the rest are in flight.
            let (answered, shutdown) = try await withClient(.dealer, address, receiveTimeout: 10_000) { client -> ([Reply], Reply?) in
                for index in 0..<count {
                    try client.send(body: request(id: "w\(index)", params: ["name": "Late", "email": .string("late-\(index)-\(UUID().uuidString.prefix(6))@example.com")]))
                }
                guard let first = try client.receiveReply() else { return ([], nil) }
                let body = Array(#"{"v":1,"id":"stop","op":"shutdown"}"#.utf8)
                let shutdown = try adminBlocking(address: adminAddress, serverKey: serverKey, keyPair: keys, body: body, timeout: 5000)
                return ([first] + (try client.receiveReplies(upTo: count - 1)), shutdown)
            }
            #expect(shutdown?.result?["state"] == "stopping", "\(String(describing: shutdown))")
            #expect(answered.count == count, "every request sent before the shutdown gets exactly one reply")
            #expect(Set(answered.compactMap { $0.id?.stringValue }).count == count)
            let unexpected = answered.filter { $0.ok != true && $0.code != "unavailable" }
            #expect(unexpected.isEmpty, "answered, or refused without effect: \(unexpected.prefix(3))")
            #expect(await child.waitForExit(timeout: 15), "svcd exits after the shutdown op")
            #expect(child.exitStatus == 0, "stderr:\n\(child.stderrText)")
        }
    }

    @Test func shutdownAnswersThenSvcdExitsZero() async throws {
        try await withSvcd(seed: false) { child in
            let endpoints = try await child.endpoints()
            let reply = try #require(try await admin(endpoints, "shutdown"))
            #expect(reply.result?["state"] == "stopping")
            #expect(await child.waitForExit(timeout: 15), "svcd exits after the shutdown op")
            #expect(child.exitStatus == 0, "stderr:\n\(child.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: child.dataDirectory + "/endpoints.json"))
        }
    }
}

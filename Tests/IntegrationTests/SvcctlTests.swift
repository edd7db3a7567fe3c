import Foundation
import Synchronization
import Testing
import SvcdTestSupport
import WireContract
import WireJSON
import WireTestSupport
import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Running svcctl

/// Runs svcctl with `arguments` (in `directory` when given), killing it after `timeout` seconds.
private func svcctl(_ arguments: [String], in directory: String? = nil, timeout seconds: Double = 20) async throws -> ToolOutcome {
    let executable = try ExecutableLocator.svcctl()
    guard let directory else { return try await runTool(executable, arguments, timeout: seconds) }
    // runTool has no working-directory parameter: go through /bin/sh to change into it.
    return try await runTool("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, executable] + arguments, timeout: seconds)
}

/// Parses a tool's stdout as JSON, failing the test when it is not.
private func json(_ outcome: ToolOutcome) throws -> JSONValue {
    do {
        return try JSONParser.parse(outcome.stdout)
    } catch {
        Issue.record("stdout is not JSON (\(error)): \(outcome.stdout)\nstderr: \(outcome.stderr)")
        throw error
    }
}

/// A fresh temporary directory, removed by the caller.
private func makeTemporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("svcctl-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

private func posixMode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int) & 0o777
}

// MARK: - A fake admin endpoint (CURVE ROUTER on its own thread)

/// A stand-in for svcd's admin endpoint: a CURVE-server ROUTER that records each request and
/// answers it with `answer(request)` (no reply when that is `nil`). Lets svcctl's client side be
/// tested independently of svcd.
final class FakeAdminEndpoint: Sendable {
    let serverKeys: ZMQCurveKeyPair
    private let boundAddress = Mutex<String?>(nil)
    private let failure = Mutex<String?>(nil)
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let received = Mutex<[JSONValue]>([])
    private let answer: @Sendable (JSONValue) -> JSONValue?

    init(answer: @escaping @Sendable (JSONValue) -> JSONValue?) throws {
        serverKeys = try ZMQCurveKeyPair.generate()
        self.answer = answer
    }

    var requests: [JSONValue] { received.withLock { $0 } }

    /// Starts the serving thread and waits until it is bound; returns the address.
    func start() async throws -> String {
        DedicatedThread.start(named: "fake-admin") { [self] in serve() }
        for _ in 0..<500 {
            if let address = boundAddress.withLock({ $0 }) { return address }
            if let failure = failure.withLock({ $0 }) { throw ChildFailure("fake admin endpoint: \(failure)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ChildFailure("fake admin endpoint did not bind within 5 s")
    }

    /// Stops the serving thread and waits for it to end.
    func stop() async {
        stopping.store(true, ordering: .sequentiallyConsistent)
        while !finished.load(ordering: .sequentiallyConsistent) {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    private func serve() {
        defer { finished.store(true, ordering: .sequentiallyConsistent) }
        do throws(ZMQError) {
            let context = try ZMQContext()
            defer { context.terminate() }
            let router = try context.makeSocket(.router)
            defer { router.close() }
            try router.setLinger(0)
            try router.setCurveServer(true)
            try router.setCurveSecretKey(serverKeys.secretKey)
            try router.setReceiveTimeout(20)
            let address = try router.bind("tcp://127.0.0.1:*")
            boundAddress.withLock { $0 = address }
            var frames: [[UInt8]] = []
            while !stopping.load(ordering: .sequentiallyConsistent) {
                guard try router.receiveMultipart(into: &frames) != nil else { continue }
                guard frames.count == 3, frames[1].isEmpty, let request = try? JSONParser.parse(frames[2]) else { continue }
                received.withLock { $0.append(request) }
                guard let reply = answer(request) else { continue }
                try router.sendMultipart([frames[0], [], reply.encoded()])
            }
        } catch {
            failure.withLock { $0 = "\(error)" }
        }
    }

    /// A success envelope answering `request`.
    static func ok(_ request: JSONValue, _ result: JSONValue) -> JSONValue {
        ["v": 1, "id": request["id"] ?? .null, "ok": true, "result": result]
    }

    /// An error envelope answering `request`.
    static func error(_ request: JSONValue, code: String, message: String) -> JSONValue {
        ["v": 1, "id": request["id"] ?? .null, "ok": false, "error": ["code": .string(code), "message": .string(message)]]
    }
}

/// Writes an endpoints.json into `dataDirectory` naming this (live) test process, the given
/// admin address and server key, and client key files made by `svcctl keygen`.
private func writeEndpointsFile(
    dataDirectory: String, admin: String, serverKey: String, useCases: [String: String] = [:]
) async throws {
    let keygen = try await svcctl(["keygen", "--data-dir", dataDirectory, "--name", "admin-client", "--json"])
    try #require(keygen.status == 0, "keygen failed: \(keygen.stderr)")
    let keys = try json(keygen)
    var cases = JSONObject()
    for (name, address) in useCases.sorted(by: { $0.key < $1.key }) { cases.append(key: name, value: .string(address)) }
    let file: JSONValue = [
        "pid": .int(Int(getpid())),
        "admin": .string(admin),
        "adminServerKey": .string(serverKey),
        "adminClientPublicKeyFile": keys["publicKeyFile"] ?? .null,
        "adminClientSecretKeyFile": keys["secretKeyFile"] ?? .null,
        "useCases": .object(cases),
    ]
    let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("endpoints.json")
    try Data(file.encoded()).write(to: path)
}

/// A TCP port on 127.0.0.1 with nothing listening (bound once, then released).
// MARK: - Tests that need no admin endpoint

@Suite struct SvcctlTests {
    @Test func statusWithEmptyDataDirectoryExitsThree() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await svcctl(["status", "--data-dir", directory])
        #expect(outcome.status == 3, "\(outcome)")
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("not running"))
        // Options before the subcommand work too.
        let before = try await svcctl(["--data-dir", directory, "--json", "status"])
        #expect(before.status == 3, "\(before)")
    }

    @Test func statusWithAStalePidExitsThreeAndOtherCommandsSixtyNine() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A pid far above Linux's pid_max: never alive.
        let stale: JSONValue = ["pid": 99_999_999, "admin": "tcp://127.0.0.1:1", "useCases": [:]]
        try Data(stale.encoded()).write(to: URL(fileURLWithPath: directory).appendingPathComponent("endpoints.json"))
        let status = try await svcctl(["status", "--data-dir", directory])
        #expect(status.status == 3, "\(status)")
        let drain = try await svcctl(["drain", "--data-dir", directory])
        #expect(drain.status == 69, "\(drain)")
        let emptyDirectory = try await svcctl(["stats", "--data-dir", directory + "/nothing-here"])
        #expect(emptyDirectory.status == 69, "\(emptyDirectory)")
    }

    @Test(arguments: [
        ["no-such-command"], [], ["status", "--no-such-option"], ["log-level", "loud"], ["backup"],
        ["status", "--timeout", "0"], ["keygen", "--name", "../escape"], ["call"],
    ])
    func usageErrorsExitSixtyFour(_ arguments: [String]) async throws {
        let outcome = try await svcctl(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome)")
        #expect(!outcome.stderr.isEmpty)
    }

    @Test func helpExitsZero() async throws {
        let outcome = try await svcctl(["--help"])
        #expect(outcome.status == 0)
        for command in ["status", "endpoints", "stats", "health", "call", "drain", "resume", "shutdown", "backup", "log-level", "keygen"] {
            #expect(outcome.stdout.contains(command), "help lists \(command)")
        }
    }

    @Test func keygenWritesAKeyPairAndAllowsIt() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await svcctl(["keygen", "--data-dir", directory, "--name", "ops", "--json"])
        #expect(first.status == 0, "\(first)")
        let result = try json(first)
        let publicPath = try #require(result["publicKeyFile"]?.stringValue)
        let secretPath = try #require(result["secretKeyFile"]?.stringValue)
        let publicKey = try #require(result["publicKey"]?.stringValue)
        let keys = URL(fileURLWithPath: directory).appendingPathComponent("keys")
        #expect(publicPath == keys.appendingPathComponent("ops.public").path)
        #expect(secretPath == keys.appendingPathComponent("ops.secret").path)
        #expect(try posixMode(secretPath) == 0o600)
        let publicText = try String(contentsOfFile: publicPath, encoding: .utf8)
        let secretText = try String(contentsOfFile: secretPath, encoding: .utf8)
        #expect(publicText == publicKey + "\n")
        let secretKey = secretText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secretKey.utf8.count == 40)
        #expect(try ZMQCurve.publicKey(fromSecret: secretKey) == publicKey, "the files hold one key pair")

        // A second key (default name, human output) is appended; an existing name is refused.
        let second = try await svcctl(["--data-dir", directory, "keygen"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("client-"))
        let again = try await svcctl(["keygen", "--data-dir", directory, "--name", "ops"])
        #expect(again.status == 64, "\(again)")
        #expect(try String(contentsOfFile: publicPath, encoding: .utf8) == publicText, "the existing key is kept")

        let authorized = try String(contentsOfFile: keys.appendingPathComponent("authorized_keys").path, encoding: .utf8)
        let lines = authorized.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first == publicKey)
        #expect(lines.allSatisfy { $0.utf8.count == 40 })
        #expect(authorized.hasSuffix("\n"))
    }

    @Test func callErrorsAndRepliesAgainstARunningSvcd() async throws {
        try await withSvcd(seed: true) { child in
            _ = try await child.endpoints()
            let dataDirectory = child.dataDirectory

            let bad = try await svcctl(["call", "GetRestaurant", "{bad", "--data-dir", dataDirectory])
            #expect(bad.status == 65, "\(bad)")
            #expect(bad.stderr.contains("JSON"))
            let notObject = try await svcctl(["call", "GetRestaurant", "[1, 2]", "--data-dir", dataDirectory])
            #expect(notObject.status == 65, "\(notObject)")

            let unknown = try await svcctl(["call", "NoSuchUseCase", "{}", "--data-dir", dataDirectory])
            #expect(unknown.status == 64, "\(unknown)")

            let found = try await svcctl(["call", "GetRestaurant", #"{"restaurantId":"r-000001"}"#, "--data-dir", dataDirectory])
            #expect(found.status == 0, "\(found)")
            let result = try json(found)
            #expect(result["restaurant"]?["id"]?.stringValue == "r-000001", "prints the result: \(found.stdout)")

            let envelope = try await svcctl(["call", "GetRestaurant", #"{"restaurantId":"r-000001"}"#, "--data-dir", dataDirectory, "--json"])
            #expect(envelope.status == 0, "\(envelope)")
            let okReply = try json(envelope)
            #expect(okReply["v"]?.intValue == 1)
            #expect(okReply["ok"]?.boolValue == true)
            #expect(okReply["id"]?.stringValue?.isEmpty == false)
            #expect(okReply["result"]?["restaurant"]?["id"]?.stringValue == "r-000001")

            let missing = try await svcctl(["call", "GetRestaurant", #"{"restaurantId":"nope"}"#, "--json", "--data-dir", dataDirectory])
            #expect(missing.status == 1, "\(missing)")
            let errorReply = try json(missing)
            #expect(errorReply["ok"]?.boolValue == false)
            #expect(errorReply["error"]?["code"]?.stringValue == "not_found")
            #expect(missing.stderr.contains("not_found"))
            #expect(missing.stderr.contains("GetRestaurant failed"), "names the use case as the contract does: \(missing.stderr)")

            let invalid = try await svcctl(["call", "GetRestaurant", "--data-dir", dataDirectory])
            #expect(invalid.status == 1, "no params: invalid_input; \(invalid)")
        }
    }

    @Test func callSendsTheTraceparentItIsGivenAndRefusesAnInvalidOne() async throws {
        try await withSvcd(seed: true, arguments: ["--log-level", "trace"]) { child in
            _ = try await child.endpoints()
            let params = #"{"restaurantId":"r-000001"}"#
            let invalid = try await svcctl(["call", "GetRestaurant", params, "--data-dir", child.dataDirectory, "--traceparent", "00-zz-1"])
            #expect(invalid.status == 64 && invalid.stderr.contains("--traceparent"), "\(invalid)")
            let alone = try await svcctl(["call", "GetRestaurant", params, "--data-dir", child.dataDirectory, "--tracestate", "a=1"])
            #expect(alone.status == 64, "\(alone)")
            let traceId = "6af7651916cd43dd8448eb211c80319c"
            let traced = try await svcctl([
                "call", "GetRestaurant", params, "--data-dir", child.dataDirectory,
                "--traceparent", "00-\(traceId)-b7ad6b7169203331-01", "--tracestate", "a=1",
            ])
            #expect(traced.status == 0, "\(traced)")
            let deadline = ContinuousClock.now + .seconds(10)
            while !child.stderrText.contains("trace_id=\(traceId)"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(child.stderrText.contains("trace_id=\(traceId)"), "svcd's line for the request names the trace: \(child.stderrText.suffix(1500))")
        }
    }

    @Test func callToAUseCaseNobodyServesIsUnavailable() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let closed = try LoopbackSocket.refusing()
        defer { closed.close() }
        let file: JSONValue = ["pid": .int(Int(getpid())), "useCases": ["GetRestaurant": .string(try closed.address)]]
        try Data(file.encoded()).write(to: URL(fileURLWithPath: directory).appendingPathComponent("endpoints.json"))
        let outcome = try await svcctl(["call", "GetRestaurant", "{}", "--data-dir", directory, "--timeout", "3"])
        #expect(outcome.status == 69, "\(outcome)")
    }

    @Test func callExitStatusComesFromTheCodeAndOutcomeNotTheMessage() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saysUnknown = "its outcome is unknown; retrying with the same idempotencyKey is safe"
        // Request n gets answer n: the outcome member decides, whatever the message says.
        let answers: [(code: String, message: String, outcome: String?, status: Int32)] = [
            ("internal", "internal error", "unknown", 75),
            ("internal", saysUnknown, nil, 1),
            ("overloaded", saysUnknown, nil, 69),
            ("business_rule", "nothing was ordered", nil, 1),
        ]
        let router = FakeRouter { index, id in
            index < answers.count ? errorReply(id, answers[index].code, message: answers[index].message, outcome: answers[index].outcome) : nil
        }
        let address = try await router.start()
        let file: JSONValue = ["pid": .int(Int(getpid())), "useCases": ["PlaceOrder": .string(address)]]
        try Data(file.encoded()).write(to: URL(fileURLWithPath: directory).appendingPathComponent("endpoints.json"))
        for answer in answers {
            let outcome = try await svcctl(["call", "PlaceOrder", "{}", "--data-dir", directory, "--timeout", "5"])
            #expect(outcome.status == answer.status, "\(answer): \(outcome)")
            #expect(outcome.stderr.contains(answer.outcome == nil ? "\(answer.code):" : "\(answer.code) (outcome unknown):"), "\(outcome.stderr)")
        }
        #expect(router.requests == answers.count)
        await router.stop()
    }

    // MARK: svcctl's admin client against a fake admin endpoint

    @Test func adminOpsAgainstAFakeEndpoint() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let healthAnswers = HealthAnswers()
        let fake = try FakeAdminEndpoint { request in
            let op = request["op"]?.stringValue ?? ""
            switch op {
            case "status":
                return FakeAdminEndpoint.ok(request, ["state": "running", "version": "9.9.9", "pid": 4242, "uptimeSeconds": 3725])
            case "endpoints":
                return FakeAdminEndpoint.ok(request, ["admin": "tcp://127.0.0.1:7100", "useCases": ["RegisterUser": "tcp://127.0.0.1:7101"]])
            case "stats":
                if request["params"]?["format"]?.stringValue == "prometheus" {
                    return FakeAdminEndpoint.ok(request, ["text": "svc_requests_total{use_case=\"GetRestaurant\"} 12\n"])
                }
                return FakeAdminEndpoint.ok(request, [
                    "useCases": [
                        "GetRestaurant": [
                            "requests": 12, "errors": ["not_found": 2, "invalid_input": 1], "inFlight": 0, "droppedReplies": 4, "longestWaitMicros": 37,
                            "latencyMicros": ["p50": 180, "p90": 410.5, "p99": 1200, "max": 2500],
                        ],
                    ],
                ])
            case "health":
                // Healthy the first time, then the store check fails.
                if healthAnswers.next() == 1 { return FakeAdminEndpoint.ok(request, ["healthy": true, "checks": ["store": "ok"]]) }
                return FakeAdminEndpoint.ok(request, ["healthy": false, "checks": ["store": "PostgreSQL cannot be reached"]])
            case "drain": return FakeAdminEndpoint.ok(request, ["state": "draining"])
            case "resume": return FakeAdminEndpoint.ok(request, ["state": "running"])
            case "backup":
                return FakeAdminEndpoint.ok(request, ["path": request["params"]?["path"] ?? .null, "bytes": 4096])
            case "setLogLevel":
                return FakeAdminEndpoint.ok(request, ["level": request["params"]?["level"] ?? .null])
            default:
                return FakeAdminEndpoint.error(request, code: "invalid_input", message: "unknown op \(op)")
            }
        }
        let address = try await fake.start()
        try await writeEndpointsFile(dataDirectory: directory, admin: address, serverKey: fake.serverKeys.publicKey)
        do {
            let status = try await svcctl(["status", "--data-dir", directory, "--json"])
            #expect(status.status == 0, "\(status)")
            #expect(try json(status) == ["state": "running", "version": "9.9.9", "pid": 4242, "uptimeSeconds": 3725])
            let humanStatus = try await svcctl(["status", "--data-dir", directory])
            #expect(humanStatus.status == 0, "\(humanStatus)")
            #expect(humanStatus.stdout.contains("state:"))
            #expect(humanStatus.stdout.contains("running"))
            #expect(humanStatus.stdout.contains("1h 02m 05s"))

            let endpoints = try await svcctl(["endpoints", "--data-dir", directory])
            #expect(endpoints.status == 0, "\(endpoints)")
            #expect(endpoints.stdout.contains("RegisterUser"))
            #expect(endpoints.stdout.contains("tcp://127.0.0.1:7101"))

            let stats = try await svcctl(["stats", "--data-dir", directory])
            #expect(stats.status == 0, "\(stats)")
            let row = try #require(stats.stdout.split(separator: "\n").first { $0.hasPrefix("GetRestaurant") })
            let cells = row.split(separator: " ").map(String.init)
            #expect(Array(cells.prefix(10)) == ["GetRestaurant", "12", "3", "0", "180", "410.5", "1200", "2500", "4", "37"], "\(row)")
            #expect(stats.stdout.contains("DROPPED"), "\(stats.stdout)")
            let statsJSON = try await svcctl(["stats", "--json", "--data-dir", directory])
            #expect(try json(statsJSON)["useCases"]?["GetRestaurant"]?["requests"]?.intValue == 12)
            let prometheus = try await svcctl(["stats", "--format", "prometheus", "--data-dir", directory])
            #expect(prometheus.status == 0)
            #expect(prometheus.stdout == "svc_requests_total{use_case=\"GetRestaurant\"} 12\n")

            let health = try await svcctl(["health", "--data-dir", directory])
            #expect(health.status == 0, "\(health)")
            #expect(health.stdout.contains("healthy: yes"), "\(health.stdout)")
            let unhealthy = try await svcctl(["health", "--data-dir", directory])
            #expect(unhealthy.status == 2, "a failed check exits 2: \(unhealthy)")
            #expect(unhealthy.stdout.contains("healthy: no") && unhealthy.stdout.contains("PostgreSQL cannot be reached"), "\(unhealthy.stdout)")

            let drain = try await svcctl(["drain", "--json", "--data-dir", directory])
            #expect(try json(drain) == ["state": "draining"])
            let resume = try await svcctl(["resume", "--data-dir", directory])
            #expect(resume.stdout.contains("running"))

            let backup = try await svcctl(["backup", "backups/store.sqlite", "--json", "--data-dir", directory], in: directory)
            #expect(backup.status == 0, "\(backup)")
            #expect(try json(backup)["path"]?.stringValue == directory + "/backups/store.sqlite", "relative PATH is resolved against the cwd")

            let level = try await svcctl(["log-level", "debug", "--json", "--data-dir", directory])
            #expect(try json(level) == ["level": "debug"])

            let requests = fake.requests
            #expect(requests.map { $0["op"]?.stringValue ?? "" } == [
                "status", "status", "endpoints", "stats", "stats", "stats", "health", "health", "drain", "resume", "backup", "setLogLevel",
            ])
            #expect(requests.allSatisfy { $0["v"]?.intValue == 1 && $0["id"]?.stringValue?.isEmpty == false && $0["params"]?.objectValue != nil })
        } catch {
            await fake.stop()
            throw error
        }
        await fake.stop()
    }

    @Test func adminErrorReplyExitsOne() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fake = try FakeAdminEndpoint { request in
            FakeAdminEndpoint.error(request, code: "internal", message: "backup target not writable")
        }
        let address = try await fake.start()
        try await writeEndpointsFile(dataDirectory: directory, admin: address, serverKey: fake.serverKeys.publicKey)
        let outcome = try await svcctl(["backup", "/nonexistent/x.sqlite", "--data-dir", directory])
        await fake.stop()
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("backup target not writable"))
        #expect(outcome.stdout.isEmpty)
    }

    @Test func silentAdminEndpointTimesOut() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fake = try FakeAdminEndpoint { _ in nil }
        let address = try await fake.start()
        try await writeEndpointsFile(dataDirectory: directory, admin: address, serverKey: fake.serverKeys.publicKey)
        let clock = ContinuousClock()
        let started = clock.now
        let drain = try await svcctl(["drain", "--timeout", "0.5", "--data-dir", directory])
        let elapsed = clock.now - started
        let status = try await svcctl(["status", "--timeout", "0.5", "--data-dir", directory])
        await fake.stop()
        #expect(drain.status == 75, "\(drain)")
        #expect(elapsed < .seconds(10))
        #expect(status.status == 75, "a process that exists but does not answer is not 'not running': \(status)")
        #expect(status.stderr.contains("does not answer"), "\(status)")
    }

    @Test func refusedAdminConnectionIsUnavailable() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serverKeys = try ZMQCurveKeyPair.generate()
        let closed = try LoopbackSocket.refusing()
        defer { closed.close() }
        try await writeEndpointsFile(dataDirectory: directory, admin: try closed.address, serverKey: serverKeys.publicKey)
        let drain = try await svcctl(["drain", "--data-dir", directory, "--timeout", "3"])
        #expect(drain.status == 69, "\(drain)")
        let status = try await svcctl(["status", "--data-dir", directory, "--timeout", "3"])
        #expect(status.status == 3, "\(status)")
    }

    @Test func malformedKeyFileIsBadInput() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serverKeys = try ZMQCurveKeyPair.generate()
        let closed = try LoopbackSocket.refusing()
        defer { closed.close() }
        try await writeEndpointsFile(dataDirectory: directory, admin: try closed.address, serverKey: serverKeys.publicKey)
        let broken = directory + "/broken.key"
        try "not a key\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let outcome = try await svcctl(["drain", "--data-dir", directory, "--public-key-file", broken, "--secret-key-file", broken])
        #expect(outcome.status == 65, "\(outcome)")
    }
}

// MARK: - Tests against svcd's real admin endpoint

extension SvcctlTests {
    /// svcctl against svcd's CURVE admin endpoint; each test starts its own svcd.
    @Suite struct AgainstSvcd {
        @Test func readOnlyOpsAgainstSvcd() async throws {
            try await withSvcd(seed: true) { child in
                let endpoints = try await child.endpoints()
                let dataDirectory = child.dataDirectory
                let admin = try #require(endpoints.admin, "endpoints.json has an admin field")

                let status = try await svcctl(["status", "--json", "--data-dir", dataDirectory])
                #expect(status.status == 0, "\(status)")
                let result = try json(status)
                #expect(result["state"]?.stringValue == "running")
                #expect(result["pid"]?.intValue == Int(child.pid))
                #expect(result["version"]?.stringValue != nil)
                #expect(result["uptimeSeconds"]?.doubleValue != nil)
                let human = try await svcctl(["status", "--data-dir", dataDirectory])
                #expect(human.status == 0, "\(human)")
                #expect(human.stdout.contains("running"))

                let listed = try await svcctl(["endpoints", "--json", "--data-dir", dataDirectory])
                #expect(listed.status == 0, "\(listed)")
                let addresses = try json(listed)
                #expect(addresses["admin"]?.stringValue == admin)
                #expect(addresses["useCases"]?.objectValue?.keys == UseCaseName.allCases.map(\.rawValue))
                let table = try await svcctl(["endpoints", "--data-dir", dataDirectory])
                #expect(table.stdout.contains(try endpoints.address(.getRestaurant)))

                let statsTable = try await svcctl(["stats", "--data-dir", dataDirectory])
                #expect(statsTable.status == 0, "\(statsTable)")
                #expect(statsTable.stdout.contains("GetRestaurant"))

                let health = try await svcctl(["health", "--json", "--data-dir", dataDirectory])
                #expect(health.status == 0, "\(health)")
                #expect(try json(health)["healthy"]?.boolValue == true)

                let level = try await svcctl(["log-level", "debug", "--json", "--data-dir", dataDirectory])
                #expect(level.status == 0, "\(level)")
                #expect(try json(level)["level"]?.stringValue == "debug")
            }
        }

        @Test func statsCountRequestsErrorsAndLatency() async throws {
            try await withSvcd(seed: true) { child in
                _ = try await child.endpoints()
                let dataDirectory = child.dataDirectory
                // One success and one not_found, then the stats show them.
                _ = try await svcctl(["call", "GetRestaurant", #"{"restaurantId":"r-000001"}"#, "--data-dir", dataDirectory])
                _ = try await svcctl(["call", "GetRestaurant", #"{"restaurantId":"nope"}"#, "--data-dir", dataDirectory])
                let stats = try await svcctl(["stats", "--json", "--data-dir", dataDirectory])
                #expect(stats.status == 0, "\(stats)")
                let getRestaurant = try json(stats)["useCases"]?["GetRestaurant"]
                // A fresh svcd: seeding goes through the use cases directly, not the endpoints.
                #expect(getRestaurant?["requests"]?.intValue == 2, "\(stats.stdout)")
                #expect(getRestaurant?["errors"] == ["not_found": 1], "\(stats.stdout)")
                #expect(getRestaurant?["inFlight"]?.intValue == 0)
                #expect(getRestaurant?["droppedReplies"]?.intValue == 0, "\(stats.stdout)")
                #expect(getRestaurant?["latencyMicros"]?["p99"]?.doubleValue != nil)
                let table = try await svcctl(["stats", "--data-dir", dataDirectory])
                let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("GetRestaurant ") })
                let cells = row.split(separator: " ")
                #expect(cells.count >= 8 && (Int(cells[1]) ?? 0) >= 2 && (Int(cells[2]) ?? 0) >= 1, "\(row)")
                let prometheus = try await svcctl(["stats", "--format", "prometheus", "--data-dir", dataDirectory])
                #expect(prometheus.status == 0, "\(prometheus)")
                #expect(prometheus.stdout.contains(#"svc_requests_total{use_case="GetRestaurant",outcome="not_found"} 1"#), "\(prometheus.stdout)")
            }
        }

        @Test func backupWritesAStoreCopyAtARelativePath() async throws {
            try await withSvcd(seed: true) { child in
                _ = try await child.endpoints()
                let workDirectory = try makeTemporaryDirectory()
                defer { try? FileManager.default.removeItem(atPath: workDirectory) }
                let outcome = try await svcctl(["backup", "copy.sqlite", "--json", "--data-dir", child.dataDirectory], in: workDirectory)
                #expect(outcome.status == 0, "\(outcome)")
                let result = try json(outcome)
                let expected = workDirectory + "/copy.sqlite"
                #expect(result["path"]?.stringValue == expected)
                #expect((result["bytes"]?.intValue ?? 0) > 0)
                #expect(FileManager.default.fileExists(atPath: expected))
            }
        }

        @Test func drainAndResume() async throws {
            try await withSvcd(seed: true) { child in
                _ = try await child.endpoints()
                let dataDirectory = child.dataDirectory
                let drain = try await svcctl(["drain", "--json", "--data-dir", dataDirectory])
                #expect(drain.status == 0, "\(drain)")
                #expect(try json(drain)["state"]?.stringValue == "draining")
                let status = try await svcctl(["status", "--json", "--data-dir", dataDirectory])
                #expect(try json(status)["state"]?.stringValue == "draining")
                let refused = try await svcctl(["call", "GetRestaurant", #"{"restaurantId":"r-000001"}"#, "--json", "--data-dir", dataDirectory])
                #expect(refused.status == 69, "a request the draining service did not take exits 69: \(refused)")
                #expect(try json(refused)["error"]?["code"]?.stringValue == "unavailable")

                let resume = try await svcctl(["resume", "--json", "--data-dir", dataDirectory])
                #expect(resume.status == 0, "\(resume)")
                #expect(try json(resume)["state"]?.stringValue == "running")
                let served = try await svcctl(["call", "GetRestaurant", #"{"restaurantId":"r-000001"}"#, "--data-dir", dataDirectory])
                #expect(served.status == 0, "\(served)")
            }
        }

        @Test func shutdownStopsSvcdCleanly() async throws {
            try await withSvcd(seed: true) { child in
                _ = try await child.endpoints()
                let outcome = try await svcctl(["shutdown", "--json", "--data-dir", child.dataDirectory])
                #expect(outcome.status == 0, "\(outcome)")
                #expect(try json(outcome)["state"]?.stringValue == "stopping")
                #expect(await child.waitForExit(timeout: 15), "svcd did not exit after shutdown")
                #expect(child.exitStatus == 0, "stderr:\n\(child.stderrText)")
                let endpointsPath = URL(fileURLWithPath: child.dataDirectory).appendingPathComponent("endpoints.json").path
                #expect(!FileManager.default.fileExists(atPath: endpointsPath), "svcd removes endpoints.json on a clean exit")
                let status = try await svcctl(["status", "--data-dir", child.dataDirectory])
                #expect(status.status == 3, "\(status)")
            }
        }

        @Test func keygenKeysAreAcceptedAndStrangersRejected() async throws {
            try await withSvcd(seed: true) { child in
                _ = try await child.endpoints()
                let dataDirectory = child.dataDirectory
                let keygen = try await svcctl(["keygen", "--name", "operator", "--json", "--data-dir", dataDirectory])
                #expect(keygen.status == 0, "\(keygen)")
                let keys = try json(keygen)
                let publicFile = try #require(keys["publicKeyFile"]?.stringValue)
                let secretFile = try #require(keys["secretKeyFile"]?.stringValue)
                let accepted = try await svcctl([
                    "status", "--json", "--data-dir", dataDirectory, "--public-key-file", publicFile, "--secret-key-file", secretFile,
                ])
                #expect(accepted.status == 0, "a key added by keygen is allowed at once: \(accepted)")

                // A key pair made elsewhere is not in this svcd's authorized_keys.
                let elsewhere = try makeTemporaryDirectory()
                defer { try? FileManager.default.removeItem(atPath: elsewhere) }
                let strangerKeygen = try await svcctl(["keygen", "--name", "stranger", "--json", "--data-dir", elsewhere])
                let stranger = try json(strangerKeygen)
                let rejected = try await svcctl([
                    "drain", "--timeout", "2", "--data-dir", dataDirectory,
                    "--public-key-file", try #require(stranger["publicKeyFile"]?.stringValue),
                    "--secret-key-file", try #require(stranger["secretKeyFile"]?.stringValue),
                ])
                #expect(rejected.status == 69, "an unknown key gets no service: \(rejected)")
                #expect(rejected.stderr.contains("authorized_keys"))
                let status = try await svcctl(["status", "--json", "--data-dir", dataDirectory])
                #expect(try json(status)["state"]?.stringValue == "running", "the stranger's drain had no effect")
            }
        }
    }
}

/// Counts the fake admin endpoint's `health` answers.
private final class HealthAnswers: Sendable {
    private let count = Mutex(0)

    /// The number of this answer, from 1.
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}

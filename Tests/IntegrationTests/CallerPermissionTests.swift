import Foundation
import Synchronization
import Testing
import SvcdTestSupport
import WireContract
import WireJSON
import WireTestSupport
import ZeroMQ

/// svcd with a `--client-keys FILE` of callers (`KEY [NAME] [allow=…] [rate=R]`), tried from
/// outside as its callers would: a use case outside a caller's `allow` is answered `unauthorized`
/// with no effect, a caller over its rate gets `overloaded` for the excess and nothing else, a
/// key removed from the file is cut off on its open connection within a second, and every
/// answer is counted per caller in `stats` and on `/metrics`. The file's lines are spelled here,
/// not made by the code under test.
@Suite struct CallerPermissionTests {
    /// A running svcd with three callers: `kitchen` (GetRestaurant, RegisterUser and GetMenu
    /// only; no events), `capped` (rate 20) and `full`; two lines of its file do not parse.
    private struct Callers {
        let child: SvcdChild
        let endpoints: EndpointsFile
        let keysFile: String
        let kitchen: CurveClient
        let capped: CurveClient
        let full: CurveClient
        /// The file's lines, for rewriting it.
        let lines: [String]
    }

    private static let cappedRate = 20

    private func withCallers<T>(_ body: (Callers) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("integration-callers-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (kitchen, capped, full) = (try ZMQCurveKeyPair.generate(), try ZMQCurveKeyPair.generate(), try ZMQCurveKeyPair.generate())
        let lines = [
            "# callers of the use-case endpoints",
            "\(kitchen.publicKey) kitchen allow=GetRestaurant,RegisterUser,GetMenu",
            "not-a-key at all",
            "\(capped.publicKey) capped rate=\(Self.cappedRate)",
            "\(full.publicKey) full",
            "\(full.publicKey) again rate=0",
        ]
        let keysFile = directory + "/client_keys"
        try (lines.joined(separator: "\n") + "\n").write(toFile: keysFile, atomically: true, encoding: .utf8)
        return try await withSvcd(seed: true, arguments: ["--client-keys", keysFile, "--http-port", "0"]) { child in
            let endpoints = try await child.endpoints()
            let serverKey = try #require(endpoints.useCaseServerKey)
            return try await body(Callers(
                child: child, endpoints: endpoints, keysFile: keysFile, kitchen: CurveClient(serverKey: serverKey, keys: kitchen),
                capped: CurveClient(serverKey: serverKey, keys: capped), full: CurveClient(serverKey: serverKey, keys: full), lines: lines
            ))
        }
    }

    @Test func aUseCaseOutsideTheCallersAllowListIsAnsweredUnauthorizedWithNoEffect() async throws {
        try await withCallers { callers in
            let register = try callers.endpoints.address(.registerUser)
            let registered = try await call(register, request(id: "r", params: ["name": "Kit", "email": .string(uniqueEmail("kitchen"))]), curve: callers.kitchen)
            let userId = try #require(registered.result?["user"]?["id"]?.stringValue, "\(registered)")
            let save = try await call(try callers.endpoints.address(.saveFavoriteRestaurant), request(id: "s", params: [
                "userId": .string(userId), "restaurantId": "r-000001",
            ]), curve: callers.kitchen)
            #expect(save.code == "unauthorized" && save.id == .string("s"), "\(save)")
            #expect(save.message?.contains("SaveFavoriteRestaurant") == true, "the message names the use case: \(save)")
            let favorites = try await call(try callers.endpoints.address(.getFavoriteRestaurants), request(id: "f", params: [
                "userId": .string(userId),
            ]), curve: callers.full)
            #expect(favorites.ok == true && favorites.result?["restaurants"]?.arrayValue?.isEmpty == true, "nothing was saved: \(favorites)")

            // The event endpoints need `events`: the log answers unauthorized, the live stream
            // admits only callers allowed it.
            let log = try #require(callers.endpoints.eventLog), stream = try #require(callers.endpoints.events)
            let read = try await call(log, request(id: "l", params: ["after": 0]), curve: callers.kitchen)
            #expect(read.code == "unauthorized", "\(read)")
            let allowed = LiveSubscriber(stream, curve: callers.full), refused = LiveSubscriber(stream, curve: callers.kitchen)
            allowed.start()
            refused.start()
            defer {
                allowed.stop()
                refused.stop()
            }
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            while allowed.received.isEmpty, ContinuousClock.now < deadline {
                let reply = try await call(register, request(id: "w", params: ["name": "Kit", "email": .string(uniqueEmail("kitchen"))]), curve: callers.kitchen)
                #expect(reply.ok == true, "\(reply)")
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(!allowed.received.isEmpty, "a caller allowed events hears the live stream")
            #expect(refused.received.isEmpty, "a caller without events hears nothing")

            // The lines that do not parse are named by number; the others still count.
            let stderr = callers.child.stderrText
            #expect(stderr.contains("line 3 ignored") && stderr.contains("line 6 ignored"), "\(stderr.suffix(2000))")
        }
    }

    @Test func aCallerOverItsRateGetsOverloadedForTheExcessWithNoEffectAndOthersAreNotSlowed() async throws {
        try await withCallers { callers in
            let register = try callers.endpoints.address(.registerUser)
            let getRestaurant = try callers.endpoints.address(.getRestaurant)
            // Ten times its rate for two seconds, on one connection, paced by the client's clock.
            let sent = 400
            let capped = Task {
                try await withClient(.dealer, register, receiveTimeout: 5000, curve: callers.capped) { client -> (replies: [Reply], seconds: Double) in
                    let started = ContinuousClock.now
                    for index in 0..<sent {
                        try client.send(body: request(id: "c\(index)", params: ["name": "Capped", "email": .string(uniqueEmail("capped"))]))
                        Thread.sleep(forTimeInterval: 0.005)
                    }
                    let elapsed = ContinuousClock.now - started
                    return (try client.receiveReplies(upTo: sent), Double(elapsed / .milliseconds(1)) / 1000)
                }
            }
            let unlimited = try await withClient(.dealer, getRestaurant, receiveTimeout: 5000, curve: callers.full) { client in
                for index in 0..<200 {
                    try client.send(body: request(id: "g\(index)", params: ["restaurantId": "r-000001"]))
                    Thread.sleep(forTimeInterval: 0.005)
                }
                return try client.receiveReplies(upTo: 200)
            }
            let (replies, seconds) = try await capped.value
            #expect(replies.count == sent)
            let succeeded = replies.filter { $0.ok == true }.count
            let overloaded = replies.filter { $0.code == "overloaded" }
            #expect(succeeded + overloaded.count == sent, "only ok and overloaded: \(replies.filter { $0.ok != true && $0.code != "overloaded" }.prefix(3))")
            // A full bucket (the burst) and the rate over the sending time, give or take half a
            // second's tokens: svcd receives the requests over about the time they were sent,
            // later by however long it lags (a slow build, a busy machine). Without the cap all
            // 400 would be ok; with a cap that did not refill, 20.
            let expected = Double(Self.cappedRate) + Double(Self.cappedRate) * seconds
            let slack = Double(Self.cappedRate) / 2
            #expect(abs(Double(succeeded) - expected) <= slack, "\(succeeded) ok in \(seconds) s; about \(expected) expected")
            #expect(overloaded.first?.message?.contains("\(Self.cappedRate)") == true, "the message gives the limit: \(String(describing: overloaded.first))")
            #expect(unlimited.count == 200 && unlimited.allSatisfy { $0.ok == true }, "another caller is not limited: \(unlimited.filter { $0.ok != true }.prefix(3))")

            // Exactly the registrations answered ok happened: one event each.
            let log = try #require(callers.endpoints.eventLog)
            let events = try await call(log, request(id: "e", params: ["after": 0, "limit": 1000, "types": ["UserRegistered"]]), curve: callers.full)
            #expect(events.result?["events"]?.arrayValue?.count == succeeded, "\(events.description.prefix(300))")
        }
    }

    @Test func aKeyRemovedFromTheFileIsCutOffOnItsOpenConnectionWithinASecondAndServedAgainWhenAddedBack() async throws {
        try await withCallers { callers in
            let getRestaurant = try callers.endpoints.address(.getRestaurant)
            let file = callers.keysFile, lines = callers.lines, child = callers.child
            let dropLogged = "no longer in the client keys file"
            let (cutOff, servedAgain) = try await withClient(.dealer, getRestaurant, receiveTimeout: 5000, curve: callers.full) { client -> (Duration?, Duration?) in
                // The first reply waits for the handshake; the ones after are quick.
                guard try client.call(request(id: "before", params: ["restaurantId": "r-000001"]))?.ok == true else { return (nil, nil) }
                try client.setReceiveTimeout(200)
                try (lines.filter { !$0.hasSuffix(" full") }.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
                let removed = ContinuousClock.now
                var cutOff: Duration?
                while cutOff == nil, ContinuousClock.now - removed < .seconds(5) {
                    guard try client.call(request(id: "after", params: ["restaurantId": "r-000001"])) == nil else { continue }
                    let silent = ContinuousClock.now - removed
                    // A reply slower than 200 ms (a loaded machine, ThreadSanitizer) is no cut-off;
                    // a drop svcd logs is. Wait for the one or the other.
                    var late = false
                    let deadline = ContinuousClock.now + .seconds(3)
                    while !late, !child.stderrText.contains(dropLogged), ContinuousClock.now < deadline {
                        late = try client.receiveReply() != nil
                    }
                    if !late, child.stderrText.contains(dropLogged) { cutOff = silent }
                }
                try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
                let added = ContinuousClock.now
                // Replies to requests sent while cut off never come; only this id counts.
                while ContinuousClock.now - added < .seconds(5) {
                    try client.send(body: request(id: "again", params: ["restaurantId": "r-000001"]))
                    while let reply = try client.receiveReply() {
                        if reply.id == .string("again") { return (cutOff, ContinuousClock.now - added) }
                    }
                }
                return (cutOff, nil)
            }
            let cut = try #require(cutOff, "a removed key must get no reply on its open connection, with the drop logged")
            // Within 1 s, plus the 200 ms this client waits for a reply it counts as none.
            #expect(cut < .milliseconds(1300), "cut off after \(cut)")
            let again = try #require(servedAgain, "a key added back is served again on the same connection")
            #expect(again < .milliseconds(1300), "served again after \(again)")
            #expect(callers.child.stderrText.contains(dropLogged), "the drop is logged")
        }
    }

    @Test func everyAnswerIsCountedByCallerUseCaseAndCodeInStatsAndOnMetrics() async throws {
        try await withCallers { callers in
            let getRestaurant = try callers.endpoints.address(.getRestaurant)
            for index in 0..<2 {
                #expect(try await call(getRestaurant, request(id: "k\(index)", params: ["restaurantId": "r-000001"]), curve: callers.kitchen).ok == true)
            }
            let refused = try await call(try callers.endpoints.address(.listRestaurants), request(id: "l", params: [:]), curve: callers.kitchen)
            #expect(refused.code == "unauthorized", "\(refused)")
            let missing = try await call(getRestaurant, request(id: "m", params: ["restaurantId": "nope"]), curve: callers.full)
            #expect(missing.code == "not_found", "\(missing)")

            let expected: JSONValue = [
                "full": ["GetRestaurant": ["not_found": 1]],
                "kitchen": ["GetRestaurant": ["ok": 2], "ListRestaurants": ["unauthorized": 1]],
            ]
            let stats = try await runTool(try ExecutableLocator.svcctl(), ["stats", "--json", "--data-dir", callers.child.dataDirectory], timeout: 20)
            #expect(try JSONParser.parse(Array(stats.stdout.utf8))["callers"]?.canonicalEncoded() == expected.canonicalEncoded(), "\(stats.stdout.suffix(800))")
            let table = try await runTool(try ExecutableLocator.svcctl(), ["stats", "--data-dir", callers.child.dataDirectory], timeout: 20)
            #expect(table.stdout.contains("CALLER") && table.stdout.contains("unauthorized=1"), "\(table.stdout.suffix(800))")

            let metrics = try await HTTPProbe.request(port: try callers.endpoints.httpPort(), path: "/metrics")
            let samples = try await callerSamples(metrics.body)
            #expect(samples == [
                "full GetRestaurant not_found": 1, "kitchen GetRestaurant ok": 2, "kitchen ListRestaurants unauthorized": 1,
            ], "\(samples)")
        }
    }

    @Test func withoutClientKeysEveryRequestIsCountedForTheAnonymousCaller() async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            let reply = try await call(try endpoints.address(.getRestaurant), request(id: "a", params: ["restaurantId": "r-000001"]))
            #expect(reply.ok == true, "\(reply)")
            let stats = try await runTool(try ExecutableLocator.svcctl(), ["stats", "--json", "--data-dir", child.dataDirectory], timeout: 20)
            let expected: JSONValue = ["anonymous": ["GetRestaurant": ["ok": 1]]]
            #expect(try JSONParser.parse(Array(stats.stdout.utf8))["callers"]?.canonicalEncoded() == expected.canonicalEncoded(), "\(stats.stdout.suffix(800))")
        }
    }

    /// The `svc_caller_requests_total` samples of `text` as Prometheus' own Python parser reads
    /// them: "caller use_case code" → value.
    private func callerSamples(_ text: String) async throws -> [String: Int] {
        let script = """
        import json, sys
        from prometheus_client.parser import text_string_to_metric_families
        samples = {}
        for family in text_string_to_metric_families(open(sys.argv[1]).read()):
            for sample in family.samples:
                if sample.name == "svc_caller_requests_total":
                    labels = sample.labels
                    samples[f"{labels['caller']} {labels['use_case']} {labels['code']}"] = int(sample.value)
        print(json.dumps(samples))
        """
        var samples: [String: Int] = [:]
        for member in try await parsedByPrometheusClient(text, script: script).objectValue ?? JSONObject() {
            samples[member.key] = member.value.intValue
        }
        return samples
    }
}

import Foundation
import Testing
import Transport
import WireContract
import WireJSON
import WireTestSupport

/// Polls `condition` on the calling (non-cooperative) thread until it holds or `seconds` pass.
private func pollOnThread(timeout seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return true
}

/// What one DEALER saw when it pipelined requests to an endpoint whose service was not running
/// yet (so nothing it accepted could be answered) and then started it.
private struct BeforeRunPipeline: Sendable {
    /// Replies that arrived while `run()` had not started: only transport replies can.
    var beforeRun: [Reply] = []
    /// Requests the endpoint held in flight once it had read all of them.
    var acceptedBeforeRun = 0
    /// Whether every request was either answered or held in flight before the deadline.
    var allRead = false
    /// Replies after `run()` started.
    var afterRun: [Reply] = []
    var all: [Reply] { beforeRun + afterRun }
}

/// Pipelines `bodies` on one DEALER to `name` of a service that is not running, waits until the
/// endpoint has read every request (each one is either answered by the transport or counted in
/// flight), keeps them waiting `holdSeconds` longer, then starts the service and collects the remaining
/// replies.
private func pipelineBeforeRun(
    _ harness: ServiceHarness, _ name: UseCaseName, _ bodies: [[UInt8]], holdSeconds: Double = 0
) async throws -> BeforeRunPipeline {
    let address = try harness.address(name)
    let endpoint = try harness.endpoint(name)
    return try await withClient(.dealer, address) { client in
        var outcome = BeforeRunPipeline()
        for body in bodies { try client.send(body: body) }
        try client.setReceiveTimeout(20)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if outcome.beforeRun.count + endpoint.counters.inFlight == bodies.count {
                outcome.allRead = true
                break
            }
            if let reply = try client.receiveReply() { outcome.beforeRun.append(reply) }
        }
        outcome.acceptedBeforeRun = endpoint.counters.inFlight
        // The requests' age is what the test is about: they must have waited this long.
        if holdSeconds > 0 { Thread.sleep(forTimeInterval: holdSeconds) }
        harness.startRunning()
        try client.setReceiveTimeout(5000)
        outcome.afterRun = try client.receiveReplies(upTo: bodies.count - outcome.beforeRun.count)
        return outcome
    }
}

/// Checks that `replies` answer the ids `prefix-0` … `prefix-(count-1)` exactly once each.
private func expectExactlyOneReplyEach(_ replies: [Reply], prefix: String, count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    var seen: [String: Int] = [:]
    for reply in replies {
        seen[reply.id?.stringValue ?? "<no id: \(reply)>", default: 0] += 1
    }
    let expected = Set((0..<count).map { "\(prefix)-\($0)" })
    #expect(Set(seen.keys) == expected, "replies answer other ids than were sent", sourceLocation: sourceLocation)
    #expect(seen.values.allSatisfy { $0 == 1 }, "some request got more than one reply", sourceLocation: sourceLocation)
    #expect(replies.count == count, sourceLocation: sourceLocation)
}

/// Tests that need a service of their own (limits, draining, shutdown) rather than the shared one.
@Suite struct OwnServiceTests {
    @Test func overloadedRepliesComeAtOnceAndEveryRequestGetsExactlyOneReply() async throws {
        try await withService(running: false, configure: { $0.endpoint.maxInFlight = 4 }) { harness in
            let count = 200
            let bodies = (0..<count).map { request(id: "o-\($0)", params: ["limit": 5]) }
            let outcome = try await pipelineBeforeRun(harness, .loadFeed, bodies)
            #expect(outcome.allRead, "the endpoint did not read all \(count) requests within 5 s")
            expectExactlyOneReplyEach(outcome.all, prefix: "o", count: count)

            // Before run() nothing accepted can be answered, so everything that came back was
            // refused by the transport as overloaded, at once, with the request's id.
            #expect(outcome.beforeRun.count >= 1, "with at most 4 in flight, some of 200 pipelined requests must be overloaded")
            for reply in outcome.beforeRun {
                #expect(reply.code == "overloaded", "\(reply)")
                #expect(reply.id?.stringValue?.hasPrefix("o-") == true)
            }
            // The accepted ones are served once the service runs.
            #expect(outcome.afterRun.count == outcome.acceptedBeforeRun)
            #expect(outcome.afterRun.allSatisfy { $0.ok == true && $0.result?["items"] != nil })

            let after = try await call(try harness.address(.loadFeed), request(id: "after-overload"))
            #expect(after.ok == true, "\(after)")

            // While running, a second burst still gets exactly one reply per request.
            let burst = try await withClient(.dealer, try harness.address(.loadFeed)) { client in
                for index in 0..<count { try client.send(body: request(id: "p-\(index)", params: ["limit": 5])) }
                return try client.receiveReplies(upTo: count)
            }
            expectExactlyOneReplyEach(burst, prefix: "p", count: count)
            #expect(burst.allSatisfy { $0.ok == true || $0.code == "overloaded" })
        }
    }

    @Test func inFlightLimitIsNotExceededWithinOneBatch() async throws {
        let maxInFlight = 4
        try await withService(running: false, configure: { $0.endpoint.maxInFlight = maxInFlight }) { harness in
            let count = 200
            let bodies = (0..<count).map { request(id: "q-\($0)", params: ["limit": 5]) }
            let outcome = try await pipelineBeforeRun(harness, .loadFeed, bodies)
            #expect(outcome.allRead)
            expectExactlyOneReplyEach(outcome.all, prefix: "q", count: count)
            // Nothing is answered before run(), so exactly maxInFlight are admitted — also when
            // they all arrive in one batch — and every other request is refused as overloaded.
            #expect(outcome.acceptedBeforeRun == maxInFlight, "\(outcome.acceptedBeforeRun) requests were accepted with maxInFlight = \(maxInFlight)")
            #expect(outcome.all.filter { $0.ok == true }.count == maxInFlight)
            #expect(outcome.all.filter { $0.code == "overloaded" }.count == count - maxInFlight)
        }
    }

    /// Overload bounded by time: requests that waited past the queue-time target for their
    /// turn are answered `overloaded` before they run, writes with no effect; those that did not
    /// wait so long are served.
    @Test(arguments: [UseCaseName.registerUser, .getUserProfile])
    func requestsThatWaitedPastTheQueueTimeTargetAreOverloadedAndHadNoEffect(_ name: UseCaseName) async throws {
        try await withService(running: false, configure: { $0.queueTimeTarget = .milliseconds(100) }) { harness in
            let count = 30
            let run = UUID().uuidString.prefix(8)
            @Sendable func params(_ index: Int) -> JSONValue {
                name == .registerUser ? ["name": .string("Queued \(index)"), "email": .string("queued-\(run)-\(index)@example.com")] : ["userId": "u-nobody"]
            }
            let bodies = (0..<count).map { request(id: "t-\($0)", params: params($0)) }
            let outcome = try await pipelineBeforeRun(harness, name, bodies, holdSeconds: 0.3)
            #expect(outcome.allRead)
            expectExactlyOneReplyEach(outcome.all, prefix: "t", count: count)
            #expect(outcome.acceptedBeforeRun == count)
            for reply in outcome.all {
                #expect(reply.code == "overloaded", "\(reply)")
                #expect(reply.message?.contains("queue-time target of 100 ms") == true, "\(reply)")
            }
            // Nothing was written: every address is still free, and requests that do not wait
            // are served.
            if name == .registerUser {
                for index in 0..<count {
                    let again = try await call(try harness.address(name), request(id: "again-\(index)", params: params(index)))
                    #expect(again.ok == true, "t-\(index) was refused yet its e-mail is taken: \(again)")
                }
            } else {
                let again = try await call(try harness.address(name), request(id: "again", params: params(0)))
                #expect(again.code == "not_found", "\(again)")
            }
            let endpoint = try #require(harness.service.endpoints.first { $0.name == name })
            // The last reply can reach the client before the socket thread lowers its count.
            #expect(await waitUntil(timeout: 10) { endpoint.counters.inFlight == 0 })
            // Only the requests that ran count towards the longest wait: the prompt ones after.
            let longest = endpoint.statistics().longestWaitMicros
            #expect(longest > 0 && longest < 100_000, "longest wait of a request that ran: \(longest) µs")
        }
    }

    @Test func drainingAnswersUnavailableWithoutEffectAndResumeServesAgain() async throws {
        try await withService { harness in
            let register = try harness.address(.registerUser)
            let profile = try harness.address(.getUserProfile)
            let feed = try harness.address(.loadFeed)
            let registered = try await call(register, request(params: ["name": "Before Drain", "email": .string(uniqueEmail("before-drain"))]))
            let userId = try #require(registered.result?["user"]?["id"]?.stringValue, "\(registered)")
            let email = uniqueEmail("during-drain")

            harness.service.availability.drain()
            let refusedWrite = try await call(register, request(id: "drained", params: ["name": "During Drain", "email": .string(email)]))
            #expect(refusedWrite.ok == false)
            #expect(refusedWrite.code == "unavailable", "\(refusedWrite)")
            #expect(refusedWrite.id == "drained")
            let refusedRead = try await call(profile, request(id: "p", params: ["userId": .string(userId)]))
            #expect(refusedRead.code == "unavailable", "\(refusedRead)")
            let pipelined = try await withClient(.dealer, feed) { client in
                for index in 0..<20 { try client.send(body: request(id: "f-\(index)")) }
                return try client.receiveReplies(upTo: 20)
            }
            expectExactlyOneReplyEach(pipelined, prefix: "f", count: 20)
            #expect(pipelined.allSatisfy { $0.code == "unavailable" })

            harness.service.availability.resume()
            // The refused registration had no effect: the same address registers now.
            let accepted = try await call(register, request(id: "resumed", params: ["name": "During Drain", "email": .string(email)]))
            #expect(accepted.ok == true, "\(accepted)")
            #expect(accepted.result?["user"]?["email"]?.stringValue == email)
            let served = try await call(profile, request(params: ["userId": .string(userId)]))
            #expect(served.ok == true, "\(served)")
            #expect(served.result?["profile"]?["id"]?.stringValue == userId)
        }
    }

    @Test func gracefulShutdownAnswersEveryAcceptedRequestAndRunReturns() async throws {
        try await withService(running: false) { harness in
            let address = try harness.address(.loadFeed)
            let endpoint = try harness.endpoint(.loadFeed)
            let count = 100
            let clock = ContinuousClock()
            let replies = try await withClient(.dealer, address) { client in
                for index in 0..<count { try client.send(body: request(id: "s-\(index)", params: ["limit": 20])) }
                // All 100 accepted and in flight (the service does not run yet) ...
                guard pollOnThread(timeout: 5, { endpoint.counters.inFlight == count }) else { return [Reply]() }
                // ... then the shutdown is requested before run() starts serving them.
                Task {
                    await harness.service.triggerGracefulShutdown()
                    harness.startRunning()
                }
                return try client.receiveReplies(upTo: count)
            }
            let started = clock.now
            #expect(replies.count == count, "every request in flight at the shutdown gets a reply")
            expectExactlyOneReplyEach(replies, prefix: "s", count: count)
            #expect(replies.allSatisfy { $0.ok == true || $0.code == "unavailable" })
            #expect(await waitUntil(timeout: 5) { harness.hasFinished }, "run() returns within 5 s of the shutdown")
            #expect(clock.now - started < .seconds(5))
            // The endpoint has stopped taking requests.
            let late = try await withClient(.req, address, receiveTimeout: 300) { client in try client.call(request(id: "late")) }
            #expect(late == nil || late?.code == "unavailable", "\(String(describing: late))")
        }
    }

    @Test func gracefulShutdownWhileServingAnswersEveryPipelinedRequest() async throws {
        try await withService { harness in
            let address = try harness.address(.loadFeed)
            let count = 100
            let replies = try await withClient(.dealer, address) { client in
                for index in 0..<count { try client.send(body: request(id: "w-\(index)", params: ["limit": 50])) }
                guard let first = try client.receiveReply() else { return [Reply]() }
                Task { await harness.service.triggerGracefulShutdown() }
                return [first] + (try client.receiveReplies(upTo: count - 1))
            }
            expectExactlyOneReplyEach(replies, prefix: "w", count: count)
            #expect(replies.allSatisfy { $0.ok == true || $0.code == "unavailable" }, "\(replies.filter { $0.ok != true && $0.code != "unavailable" })")
            #expect(await waitUntil(timeout: 5) { harness.hasFinished }, "run() returns within 5 s of the shutdown")
        }
    }

    @Test func repliesDroppedForAVanishedPeerAreReportedByAdminStatsAndPrometheusText() async throws {
        try await withService(running: false) { harness in
            let address = try harness.address(.loadFeed)
            let endpoint = try harness.endpoint(.loadFeed)
            let count = 20
            // As above: the endpoint holds every request in flight before the DEALER vanishes,
            // so no reply can reach it.
            let accepted = try await withClient(.dealer, address) { client in
                for index in 0..<count { try client.send(body: request(id: "gone-\(index)")) }
                return pollOnThread(timeout: 5) { endpoint.counters.inFlight == count }
            }
            #expect(accepted, "the endpoint did not accept all \(count) requests")
            harness.startRunning()
            #expect(await waitUntil(timeout: 10) { endpoint.counters.inFlight == 0 }, "the endpoint finishes the vanished peer's requests")
            let dropped = endpoint.counters.droppedReplies
            #expect(dropped > 0 && dropped <= count, "dropped: \(dropped)")
            #expect(endpoint.statistics().droppedReplies == dropped)

            let stats = try #require(try await adminCall(dataDirectory: harness.dataDirectory, op: "stats"))
            #expect(stats.ok == true, "\(stats)")
            #expect(stats.result?["useCases"]?["LoadFeed"]?["droppedReplies"]?.intValue == dropped, "\(stats)")
            #expect(stats.result?["useCases"]?["GetMenu"]?["droppedReplies"]?.intValue == 0, "\(stats)")

            let prometheus = try #require(try await adminCall(dataDirectory: harness.dataDirectory, op: "stats", params: ["format": "prometheus"]))
            let text = prometheus.result?["text"]?.stringValue ?? ""
            #expect(text.contains("# TYPE svc_replies_dropped_total counter"), "\(text)")
            #expect(text.contains("svc_replies_dropped_total{use_case=\"LoadFeed\"} \(dropped)\n"), "\(text)")
        }
    }

    @Test func vanishedPeerDoesNotHurtTheEndpointAndItsRepliesAreCountedAsDropped() async throws {
        try await withService(running: false) { harness in
            let address = try harness.address(.loadFeed)
            let endpoint = try harness.endpoint(.loadFeed)
            let count = 200
            // A DEALER pipelines 200 requests, waits until the endpoint holds them all in flight,
            // then closes with linger 0 before any reply can exist.
            let accepted = try await withClient(.dealer, address) { client in
                for index in 0..<count { try client.send(body: request(id: "v-\(index)")) }
                return pollOnThread(timeout: 5) { endpoint.counters.inFlight == count }
            }
            #expect(accepted, "the endpoint did not accept all \(count) requests")
            harness.startRunning()
            #expect(await waitUntil(timeout: 10) { endpoint.counters.inFlight == 0 }, "the endpoint finishes the vanished peer's requests")
            #expect(await waitUntil(timeout: 5) { endpoint.counters.droppedReplies > 0 }, "replies to a vanished peer are dropped and counted")
            #expect(endpoint.counters.droppedReplies <= count)
            // Others are still served, on the same endpoint and elsewhere.
            let after = try await call(address, request(id: "still-here", params: ["limit": 1]))
            #expect(after.ok == true, "\(after)")
            #expect(after.id == "still-here")
            let other = try await call(try harness.address(.registerUser), request(params: ["name": "Healthy", "email": .string(uniqueEmail("healthy"))]))
            #expect(other.ok == true, "\(other)")
        }
    }
}

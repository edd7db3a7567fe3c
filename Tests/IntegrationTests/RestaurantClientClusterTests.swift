import Foundation
import RestaurantClient
import Synchronization
import Testing
import WireContract
import WireJSON

/// Starts one fake instance per `answer` and returns the routers with their addresses.
private func startRouters(_ answers: [@Sendable (Int, String) -> String?]) async throws -> (routers: [FakeRouter], addresses: [String]) {
    var routers: [FakeRouter] = []
    var addresses: [String] = []
    for answer in answers {
        let router = FakeRouter(answer: answer)
        routers.append(router)
        addresses.append(try await router.start())
    }
    return (routers, addresses)
}

private func stopAll(_ routers: [FakeRouter]) async {
    for router in routers { await router.stop() }
}

@Sendable private func answersRestaurant(_ index: Int, _ id: String) -> String? {
    okReply(id, #"{"restaurant":\#(cannedRestaurant)}"#)
}

@Sendable private func answersUser(_ index: Int, _ id: String) -> String? {
    okReply(id, #"{"user":\#(cannedUser)}"#)
}

@Sendable private func neverAnswers(_ index: Int, _ id: String) -> String? { nil }

/// Records every attempt a client reports.
private final class AttemptLog: Sendable {
    private let entries = Mutex<[RestaurantClientAttempt]>([])

    var attempts: [RestaurantClientAttempt] { entries.withLock { $0 } }

    func record(_ attempt: RestaurantClientAttempt) { entries.withLock { $0.append(attempt) } }

    func clear() { entries.withLock { $0.removeAll() } }
}

/// `ik-` and 32 lower-case hex digits.
private func isAutomaticKey(_ key: String?) -> Bool {
    guard let key else { return false }
    return key.wholeMatch(of: /ik-[0-9a-f]{32}/) != nil
}

/// Writes `endpoints.json` for `addresses` the way svcd does: a temporary file renamed over
/// the old one.
private func writeEndpointsFile(_ path: String, getRestaurant address: String) throws {
    let body = #"{"pid":1,"useCases":{"GetRestaurant":"\#(address)"}}"#
    let temporary = path + ".tmp"
    try Data(body.utf8).write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
}

private func makeTemporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("rc-cluster-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A loose upper bound on top of a documented worst case: it only catches a hang or a wrong
/// policy (tens of seconds), because the machine is shared and debug builds are slow.
private let schedulingSlack = Duration.seconds(10)

@Suite struct RestaurantClientClusterTests {
    @Test func healthyInstancesShareTheCallsRoundRobin() async throws {
        let (routers, addresses) = try await startRouters([answersRestaurant, answersRestaurant, answersRestaurant])
        let client = try RestaurantClient(
            instanceEndpoints: addresses.map { [.getRestaurant: $0] },
            options: RestaurantClientOptions(timeout: .seconds(5)))
        #expect(client.instances == addresses.map { .addresses([.getRestaurant: $0]) })
        for _ in 0..<30 {
            #expect(try await client.getRestaurant(id: "r-fake").id == "r-fake")
        }
        #expect(routers.map(\.requests) == [10, 10, 10])

        // Concurrent calls spread as well (each starts one instance further along).
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<12 { group.addTask { try await client.getRestaurant(id: "r-fake").id } }
            for try await id in group { #expect(id == "r-fake") }
        }
        #expect(routers.map(\.requests) == [14, 14, 14])
        await stopAll(routers)
    }

    @Test func aSilentInstanceIsFailedOverWithTheSameKeyAndThenSkipped() async throws {
        let silent = FakeRouter(answer: neverAnswers)
        let answering = FakeRouter.answeringEnvelopes { _, envelope in
            let id = envelope["id"]?.stringValue ?? ""
            return envelope["params"]?["email"] != nil ? answersUser(0, id) : answersRestaurant(0, id)
        }
        let routers = [silent, answering]
        let addresses = [try await silent.start(), try await answering.start()]
        let log = AttemptLog()
        let options = RestaurantClientOptions(timeout: .milliseconds(300), retries: 0, backoff: .milliseconds(10), coolDown: .seconds(60))
        #expect(options.maxAttempts(instanceCount: 2) == 2, "a cluster gets one attempt per instance even without retries")
        let client = try RestaurantClient(
            instances: addresses.map { .addresses([.registerUser: $0, .getRestaurant: $0]) }, options: options,
            onAttempt: log.record)

        // The first call starts at the silent instance, times out there and succeeds on the next.
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await client.registerUser(name: "Fake", email: "fake@example.com").id == "u-fake")
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(300))
        #expect(elapsed < options.worstCaseDuration(instanceCount: 2) + schedulingSlack)
        let first = log.attempts
        #expect(first.map(\.instance) == [0, 1])
        #expect(first.map(\.number) == [0, 1])
        #expect(first.map(\.address) == addresses)
        await routers[0].waitForRequests(1)
        let keyAtSilent = routers[0].envelopes.first?["idempotencyKey"]?.stringValue
        let keyAtAnswering = routers[1].envelopes.first?["idempotencyKey"]?.stringValue
        #expect(isAutomaticKey(keyAtSilent), "\(String(describing: keyAtSilent))")
        #expect(keyAtSilent == keyAtAnswering, "one call, one key on every attempt")
        #expect(first.allSatisfy { $0.idempotencyKey == keyAtSilent })

        // During its cool-down the silent instance gets nothing; each write gets a new key.
        log.clear()
        for _ in 0..<5 {
            _ = try await client.registerUser(name: "Fake", email: "fake@example.com")
            #expect(try await client.getRestaurant(id: "r-fake").id == "r-fake")
        }
        #expect(log.attempts.allSatisfy { $0.instance == 1 && $0.number == 0 })
        #expect(routers[0].requests == 1)
        let envelopes = routers[1].envelopes
        let writeKeys = envelopes.filter { $0["params"]?["email"] != nil }.compactMap { $0["idempotencyKey"]?.stringValue }
        #expect(writeKeys.count == 6)
        #expect(Set(writeKeys).count == 6, "a new key per call")
        #expect(writeKeys.allSatisfy { isAutomaticKey($0) })
        let reads = envelopes.filter { $0["params"]?["restaurantId"] != nil }
        #expect(reads.count == 5)
        #expect(reads.allSatisfy { $0.objectValue?.contains(key: "idempotencyKey") == false }, "reads carry no key")
        await stopAll(routers)
    }

    @Test func anUnavailableInstanceIsFailedOverAndCooledDown() async throws {
        let (routers, addresses) = try await startRouters([
            { _, id in errorReply(id, "unavailable") }, answersRestaurant, answersRestaurant,
        ])
        let log = AttemptLog()
        let client = try RestaurantClient(
            instances: addresses.map { .addresses([.getRestaurant: $0]) },
            options: RestaurantClientOptions(timeout: .seconds(5), retries: 0, coolDown: .seconds(60)),
            onAttempt: log.record)
        #expect(try await client.getRestaurant(id: "r-fake").id == "r-fake")
        #expect(log.attempts.map(\.instance) == [0, 1])
        // Cooling down, instance 0 is skipped; the other two share its calls evenly.
        log.clear()
        for _ in 0..<6 { _ = try await client.getRestaurant(id: "r-fake") }
        #expect(log.attempts.map(\.instance) == [2, 1, 2, 1, 2, 1])
        #expect(routers.map(\.requests) == [1, 4, 3])
        await stopAll(routers)
    }

    @Test func aCoolDownEndsAndThenDoubles() async throws {
        let (routers, addresses) = try await startRouters([{ _, id in errorReply(id, "unavailable") }, answersRestaurant])
        let log = AttemptLog()
        let coolDown = Duration.milliseconds(400)
        let client = try RestaurantClient(
            instances: addresses.map { .addresses([.getRestaurant: $0]) },
            options: RestaurantClientOptions(timeout: .seconds(5), retries: 0, coolDown: coolDown, maxCoolDown: .seconds(60)),
            onAttempt: log.record)
        let clock = ContinuousClock()
        _ = try await client.getRestaurant(id: "r-fake")  // instance 0 answers unavailable: cool-down 400 ms
        let firstFailure = clock.now
        #expect(log.attempts.map(\.instance) == [0, 1])
        // Waiting out the cool-down is the behaviour under test, not a race.
        try await Task.sleep(until: firstFailure + coolDown + .milliseconds(50), clock: clock)
        log.clear()
        // Two calls: one of them starts at instance 0, which is live again and tried.
        let beforeSecondFailure = clock.now
        _ = try await client.getRestaurant(id: "r-fake")
        _ = try await client.getRestaurant(id: "r-fake")
        #expect(log.attempts.filter { $0.instance == 0 }.count == 1)
        #expect(routers[0].requests == 2)
        // The second consecutive failure doubled the cool-down to 800 ms: calls made within it
        // skip instance 0 (checked only if the machine kept up, i.e. they all ended within it).
        log.clear()
        for _ in 0..<4 { _ = try await client.getRestaurant(id: "r-fake") }
        if clock.now - beforeSecondFailure < coolDown * 2 {
            #expect(log.attempts.allSatisfy { $0.instance == 1 })
        }
        await stopAll(routers)
    }

    @Test func everyInstanceSilentTimesOutAfterTheDocumentedAttempts() async throws {
        let (routers, addresses) = try await startRouters([neverAnswers, neverAnswers, neverAnswers])
        let log = AttemptLog()
        let options = RestaurantClientOptions(timeout: .milliseconds(150), retries: 4, backoff: .milliseconds(10), coolDown: .seconds(60))
        #expect(options.maxAttempts(instanceCount: 3) == 5)
        #expect(options.worstCaseDuration(instanceCount: 3) == .milliseconds(900), "5 × 150 ms + 10 + 20 + 40 + 80 ms")
        let client = try RestaurantClient(
            instances: addresses.map { .addresses([.getRestaurant: $0, .placeOrder: $0]) }, options: options,
            onAttempt: log.record)
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: RestaurantClientError.timeout) {
            try await client.getRestaurant(id: "r-fake")
        }
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(750))
        #expect(elapsed < options.worstCaseDuration(instanceCount: 3) + schedulingSlack)
        #expect(log.attempts.map(\.number) == [0, 1, 2, 3, 4])
        // Each instance once, then (all cooling down) the longest-failed first.
        #expect(log.attempts.map(\.instance) == [0, 1, 2, 0, 1])
        for (router, expected) in zip(routers, [2, 2, 1]) { await router.waitForRequests(expected) }
        #expect(routers.map(\.requests) == [2, 2, 1])

        // A write is resent the same way, with one key throughout.
        log.clear()
        await #expect(throws: RestaurantClientError.timeout) {
            try await client.call(.placeOrder, params: ["userId": "u-1"])
        }
        let attempts = log.attempts
        #expect(attempts.count == 5)
        let key = try #require(attempts.first?.idempotencyKey)
        #expect(attempts.allSatisfy { $0.idempotencyKey == key })
        await stopAll(routers)
    }

    @Test func overloadedAndDeadlineExceededAreResentWithoutACoolDown() async throws {
        let (routers, addresses) = try await startRouters([
            { index, id in index % 2 == 0 ? errorReply(id, "overloaded") : answersRestaurant(index, id) },
            { index, id in index % 2 == 0 ? errorReply(id, "deadline_exceeded") : answersRestaurant(index, id) },
        ])
        let log = AttemptLog()
        let client = try RestaurantClient(
            instances: addresses.map { .addresses([.getRestaurant: $0]) },
            options: RestaurantClientOptions(timeout: .seconds(5), retries: 2, backoff: .milliseconds(10), coolDown: .seconds(60)),
            onAttempt: log.record)
        // Instance 0 refuses (overloaded) → instance 1 refuses (deadline_exceeded) → instance 0 answers.
        #expect(try await client.getRestaurant(id: "r-fake").id == "r-fake")
        #expect(log.attempts.map(\.instance) == [0, 1, 0])
        // Neither refusal cooled its instance down: the next call starts at instance 1 and is
        // answered there.
        log.clear()
        #expect(try await client.getRestaurant(id: "r-fake").id == "r-fake")
        #expect(log.attempts.map(\.instance) == [1])
        #expect(routers.map(\.requests) == [2, 2])
        await stopAll(routers)
    }

    @Test func internalIsResentOnlyForAKeyedWriteWhoseOutcomeIsUnknown() async throws {
        // The decision comes from `outcome` alone: the first router's message says nothing of it,
        // the second's speaks of an unknown outcome but the member is absent.
        let saysUnknown = "the commit outcome is unknown; retrying with the same idempotencyKey is safe"
        let (routers, addresses) = try await startRouters([
            { index, id in index == 0 ? errorReply(id, "internal", message: "internal error", outcome: "unknown") : answersUser(index, id) },
            { _, id in errorReply(id, "internal", message: saysUnknown) },
            { _, id in errorReply(id, "internal", message: "internal error", outcome: "unknown") },
        ])
        let options = RestaurantClientOptions(timeout: .seconds(5), retries: 2, backoff: .milliseconds(10), coolDown: .seconds(60))
        // Single-instance clients, so the resends are visible at one router.
        let retried = try RestaurantClient(endpoints: [.registerUser: addresses[0]], options: options)
        #expect(try await retried.registerUser(name: "Fake", email: "fake@example.com").id == "u-fake")
        #expect(routers[0].requests == 2)
        let keys = routers[0].envelopes.map { $0["idempotencyKey"]?.stringValue }
        #expect(keys[0] != nil && keys[0] == keys[1])

        let plain = try RestaurantClient(endpoints: [.registerUser: addresses[1]], options: options)
        let plainError = await #expect(throws: RestaurantClientError.self) {
            try await plain.registerUser(name: "Fake", email: "fake@example.com")
        }
        #expect(plainError == .service(code: "internal", message: saysUnknown, outcome: nil))
        #expect(plainError?.wireOutcome == nil)
        #expect(routers[1].requests == 1, "without an outcome an internal error had no effect and is not transient: returned, not resent")

        let read = try RestaurantClient(endpoints: [.getRestaurant: addresses[2]], options: options)
        let readError = await #expect(throws: RestaurantClientError.self) {
            try await read.getRestaurant(id: "r-fake")
        }
        #expect(readError?.wireCode == .internal && readError?.wireOutcome == .unknown)
        #expect(routers[2].requests == 1, "a read binds no key, so internal is returned")
        await stopAll(routers)
    }

    @Test func aWriteOfUnknownOutcomeIsNotReportedAsNoEffectByALaterRefusal() async throws {
        // The first attempt's commit outcome is unknown (or it gets no reply); every resend is
        // refused `overloaded`. The call must fail with the unknown outcome, not the refusal.
        let (routers, addresses) = try await startRouters([
            { index, id in index == 0 ? errorReply(id, "internal", message: "internal error", outcome: "unknown") : errorReply(id, "overloaded") },
            { index, id in index == 0 ? nil : errorReply(id, "overloaded") },
        ])
        let options = RestaurantClientOptions(timeout: .milliseconds(500), retries: 2, backoff: .milliseconds(10), coolDown: .seconds(60))
        let committing = try RestaurantClient(endpoints: [.registerUser: addresses[0]], options: options)
        let unknown = await #expect(throws: RestaurantClientError.self) {
            try await committing.registerUser(name: "Fake", email: "fake@example.com")
        }
        #expect(unknown?.wireCode == .internal && unknown?.wireOutcome == .unknown, "\(String(describing: unknown))")
        #expect(routers[0].requests == 3)

        let silent = try RestaurantClient(endpoints: [.registerUser: addresses[1]], options: options)
        let timedOut = await #expect(throws: RestaurantClientError.self) {
            try await silent.registerUser(name: "Fake", email: "fake@example.com")
        }
        #expect(timedOut == .timeout, "\(String(describing: timedOut))")
        #expect(routers[1].requests == 3)

        // A read has no effect to be unknown: the last failure is returned.
        let read = try RestaurantClient(endpoints: [.getRestaurant: addresses[1]], options: options)
        let readError = await #expect(throws: RestaurantClientError.self) {
            try await read.getRestaurant(id: "r-fake")
        }
        #expect(readError?.wireCode == .overloaded, "\(String(describing: readError))")
        await stopAll(routers)
    }

    @Test func aCallersKeyIsSentAsGivenOnEveryAttempt() async throws {
        // Drops every first request of a pair, answers the second.
        let (routers, addresses) = try await startRouters([{ index, id in
            index % 2 == 0 ? nil : okReply(id, #"{"user":\#(cannedUser)}"#)
        }])
        let router = routers[0]
        let client = try RestaurantClient(
            endpoints: [.registerUser: addresses[0], .getRestaurant: addresses[0]],
            options: RestaurantClientOptions(timeout: .milliseconds(300), retries: 1, backoff: .milliseconds(10)))
        _ = try await client.registerUser(name: "Fake", email: "fake@example.com", idempotencyKey: "signup-42")
        let longKey = String(repeating: "é", count: 128)  // 128 characters, 256 bytes
        _ = try await client.call(.registerUser, params: ["name": "Fake"], idempotencyKey: longKey)
        #expect(router.envelopes.map { $0["idempotencyKey"]?.stringValue } == ["signup-42", "signup-42", longKey, longKey])

        for bad in ["", String(repeating: "k", count: 129)] {
            await #expect(throws: RestaurantClientError.invalidArgument("idempotencyKey must be 1 to 128 characters, got \(bad.count)")) {
                try await client.call(.registerUser, params: [:], idempotencyKey: bad)
            }
        }
        #expect(router.requests == 4, "a refused key sends nothing")
        #expect(RestaurantClient.makeIdempotencyKey() != RestaurantClient.makeIdempotencyKey())
        #expect(isAutomaticKey(RestaurantClient.makeIdempotencyKey()))
        await router.stop()
    }

    @Test func endpointsFilesAreReadWhenNeededAndFollowedWhenTheyChange() async throws {
        let (routers, addresses) = try await startRouters([answersRestaurant, answersRestaurant, answersRestaurant])
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fileA = directory + "/a/endpoints.json"
        let fileB = directory + "/b.json"
        try FileManager.default.createDirectory(atPath: directory + "/a", withIntermediateDirectories: true)
        try writeEndpointsFile(fileB, getRestaurant: addresses[1])
        let log = AttemptLog()
        let client = try RestaurantClient(
            instances: [.endpointsFile(fileA), .endpointsFile(fileB)],
            options: RestaurantClientOptions(timeout: .seconds(5), retries: 0, coolDown: .seconds(60)),
            onAttempt: log.record)
        #expect(client.endpoints.isEmpty, "nothing is read before a call needs it")

        // Instance a has no file yet: it counts as down, calls go to b.
        for _ in 0..<4 { #expect(try await client.getRestaurant(id: "r-fake").id == "r-fake") }
        #expect(log.attempts.allSatisfy { $0.instance == 1 })
        #expect(routers.map(\.requests) == [0, 4, 0])

        // Its file appears: a is live at once (despite the long cool-down) and shares the calls.
        try writeEndpointsFile(fileA, getRestaurant: addresses[0])
        log.clear()
        for _ in 0..<4 { _ = try await client.getRestaurant(id: "r-fake") }
        #expect(log.attempts.map(\.instance).sorted() == [0, 0, 1, 1])
        #expect(client.endpoints == [.getRestaurant: addresses[0]])

        // b "restarts" on another port: its new file is followed, the old address gets nothing.
        try writeEndpointsFile(fileB, getRestaurant: addresses[2])
        for _ in 0..<4 { _ = try await client.getRestaurant(id: "r-fake") }
        #expect(routers.map(\.requests) == [4, 6, 2])

        // No instance readable: the call fails at once with the reason, sending nothing.
        let nowhere = try RestaurantClient(endpointsFiles: [directory + "/none", directory + "/gone.json"])
        #expect(nowhere.instances == [.endpointsFile(directory + "/none/endpoints.json"), .endpointsFile(directory + "/gone.json")])
        await #expect(throws: RestaurantClientError.unavailable("cannot read \(directory)/gone.json; is svcd running?")) {
            try await nowhere.getRestaurant(id: "r-fake")
        }
        await stopAll(routers)
    }

    @Test func clientsAreBuiltFromClusterFilesAndNeedAnInstance() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clusterPath = directory + "/cluster.txt"
        try Data("# two instances\n/srv/a\n\n  b/endpoints.json  \n".utf8).write(to: URL(fileURLWithPath: clusterPath))
        let client = try RestaurantClient(clusterFile: clusterPath)
        #expect(client.instances == [.endpointsFile("/srv/a/endpoints.json"), .endpointsFile(directory + "/b/endpoints.json")])
        #expect(try RestaurantClient(cluster: ClusterFile.read(clusterPath)).instances == client.instances)

        let noInstance = RestaurantClientError.invalidArgument("a RestaurantClient needs at least one svcd instance")
        #expect(throws: noInstance) { try RestaurantClient(instances: []) }
        #expect(throws: noInstance) { try RestaurantClient(endpointsFiles: []) }
        #expect(throws: noInstance) { try RestaurantClient(instanceEndpoints: []) }
        #expect {
            _ = try RestaurantClient(clusterFile: directory + "/missing.txt")
        } throws: { error in
            if case .unavailable = error as? RestaurantClientError { return true }
            return false
        }
    }
}

import Foundation
import RestaurantClient
import Synchronization
import SvcdTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Launches two seeded svcd children (separate stores: they share no data, which failover does
/// not need), writes a cluster file naming their data directories, runs `body`, and always
/// resumes (SIGCONT) and stops both and removes the cluster file.
private func withTwoSvcds<T>(_ body: ([SvcdChild], _ clusterFile: String) async throws -> T) async throws -> T {
    var children: [SvcdChild] = []
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rc-svcd-cluster-\(UUID().uuidString)").path
    func cleanUp() async {
        for child in children {
            child.send(signal: SIGCONT)
            await child.stop()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
    do {
        for _ in 0..<2 { children.append(try await SvcdChild.launch(seed: true)) }
        for child in children { _ = try await child.endpoints() }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let clusterFile = directory + "/cluster"
        let text = "# two svcd instances\n" + children.map { $0.dataDirectory + "\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: clusterFile))
        let result = try await body(children, clusterFile)
        await cleanUp()
        return result
    } catch {
        await cleanUp()
        throw error
    }
}

/// Records the instance of every attempt a client reports.
private final class InstanceLog: Sendable {
    private let instances = Mutex<[Int]>([])

    var all: [Int] { instances.withLock { $0 } }

    func record(_ attempt: RestaurantClientAttempt) { instances.withLock { $0.append(attempt.instance) } }

    func clear() { instances.withLock { $0.removeAll() } }
}

/// A timeout well above a healthy debug svcd's slowest reply on a loaded machine (a write waits
/// for fsync), so only the instance under test fails; enough attempts that one slow reply does
/// not fail a call; a cool-down longer than any test, so a failed instance is tried once.
private let clusterOptions = RestaurantClientOptions(
    timeout: .seconds(2), retries: 3, backoff: .milliseconds(20), coolDown: .seconds(60))

/// The documented bound for two instances plus room for a shared, slow machine (it only catches
/// a hang or a wrong policy).
private let perCallLimit = clusterOptions.worstCaseDuration(instanceCount: 2) + .seconds(10)

/// Makes `calls` calls (reads of a sample restaurant and one registration), expecting each to
/// succeed within `perCallLimit`.
private func exerciseCluster(_ client: RestaurantClient, calls: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
    let clock = ContinuousClock()
    for index in 0..<calls {
        let start = clock.now
        do {
            if index == calls / 2 {
                let email = "cluster.\(UUID().uuidString.prefix(12).lowercased())@example.com"
                #expect(try await client.registerUser(name: "Cluster", email: email).email == email, sourceLocation: sourceLocation)
            } else {
                #expect(try await client.getRestaurant(id: "r-000001").name == "Golden Spoon Italian", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("call \(index) failed: \(error)", sourceLocation: sourceLocation)
        }
        #expect(clock.now - start < perCallLimit, "call \(index)", sourceLocation: sourceLocation)
    }
}

/// Waits (with a deadline) until `child` answers a GetRestaurant on its own.
private func waitUntilAnswering(_ child: SvcdChild, timeout seconds: Double = 30) async throws {
    let direct = try RestaurantClient(
        endpointsFile: child.dataDirectory + "/endpoints.json", options: RestaurantClientOptions(timeout: .seconds(2), retries: 0))
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
    while (try? await direct.getRestaurant(id: "r-000001")) == nil {
        guard clock.now < deadline else { throw ChildFailure("svcd \(child.pid) did not answer within \(seconds) s of SIGCONT") }
    }
}

/// Waits until the kernel reports `pid` stopped (state `T` in `/proc/PID/stat`): SIGSTOP is
/// delivered asynchronously, and a busy process can still answer requests meanwhile.
private func waitUntilStopped(_ pid: Int32, timeout seconds: Double = 10) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
    func state() -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = text.range(of: ") ", options: .backwards)
        else { return nil }
        return text[afterName.upperBound...].first
    }
    while state() != "T" {
        guard clock.now < deadline else { throw ChildFailure("svcd \(pid) not stopped after \(seconds) s (state \(String(describing: state())))") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

private func svcctl(_ arguments: [String]) async throws -> ToolOutcome {
    try await runTool(try ExecutableLocator.svcctl(), arguments, timeout: 20)
}

@Suite struct RestaurantClientSvcdClusterTests {
    @Test func aClusterFileOfTwoSvcdsKeepsServingWhileOneDrainsAndThenStops() async throws {
        try await withTwoSvcds { children, clusterFile in
            let log = InstanceLog()
            let client = try RestaurantClient(
                instances: try ClusterFile.read(clusterFile).endpointsFiles.map { .endpointsFile($0) },
                options: clusterOptions, onAttempt: log.record)
            #expect(client.instances == [.endpointsFile(children[0].dataDirectory + "/endpoints.json"), .endpointsFile(children[1].dataDirectory + "/endpoints.json")])
            await exerciseCluster(client, calls: 4)
            #expect(Set(log.all) == [0, 1], "both instances take calls")

            // Drained, instance 0 answers unavailable (a client of it alone sees that) ...
            let drain = try await svcctl(["drain", "--data-dir", children[0].dataDirectory])
            try #require(drain.status == 0, "\(drain)")
            let drainedOnly = try RestaurantClient(
                endpointsFile: children[0].dataDirectory + "/endpoints.json", options: RestaurantClientOptions(retries: 0))
            let drained = await #expect(throws: RestaurantClientError.self) { try await drainedOnly.getRestaurant(id: "r-000001") }
            #expect(drained?.wireCode == .unavailable)
            // ... and the cluster client goes on to instance 1, trying instance 0 at most once.
            log.clear()
            await exerciseCluster(client, calls: 6)
            #expect(log.all.filter { $0 == 0 }.count <= 1, "\(log.all)")
            #expect(log.all.filter { $0 == 1 }.count >= 6)

            // Stopped, instance 0 no longer answers at all; a new client (no cool-down yet) is
            // still served, by instance 1.
            children[0].send(signal: SIGTERM)
            #expect(await children[0].waitForExit(timeout: 20))
            let afterStop = try RestaurantClient(clusterFile: clusterFile, options: clusterOptions)
            await exerciseCluster(afterStop, calls: 6)
        }
    }

    @Test func aClusterOfTwoSvcdsKeepsServingThroughSIGSTOPAndSIGKILL() async throws {
        try await withTwoSvcds { children, clusterFile in
            let log = InstanceLog()
            let client = try RestaurantClient(
                instances: try ClusterFile.read(clusterFile).endpointsFiles.map { .endpointsFile($0) },
                options: clusterOptions, onAttempt: log.record)
            await exerciseCluster(client, calls: 2)

            // A stopped process accepts connections but never answers: timeouts, then skipped.
            children[0].send(signal: SIGSTOP)
            try await waitUntilStopped(children[0].pid)
            log.clear()
            await exerciseCluster(client, calls: 6)
            #expect(log.all.filter { $0 == 0 }.count <= 1, "\(log.all)")

            // Instance 0 resumes (still cooling down); instance 1 is killed. Once both count as
            // down, calls try the longest-failed first (instance 0), which answers again.
            children[0].send(signal: SIGCONT)
            // Resumed, it first works off what queued up while it was stopped: wait until it
            // answers again (what is tested next is the order of failover, not how fast a
            // resumed process catches up on a loaded machine).
            try await waitUntilAnswering(children[0])
            children[1].send(signal: SIGKILL)
            #expect(await children[1].waitForExit(timeout: 20))
            log.clear()
            await exerciseCluster(client, calls: 6)
            let attempts = log.all
            #expect(attempts.filter { $0 == 1 }.count <= 2, "the dead instance is skipped once it failed: \(attempts)")
            #expect(attempts.last == 0)
        }
    }
}

import Foundation
import Synchronization
import Testing
import WireContract
import WireJSON

#if canImport(Glibc)
import Glibc
#endif

/// Several svcd child processes sharing one PostgreSQL database, as a cluster runs: each started
/// with `--store postgres --database-url URL`, its own data directory (under one temporary root)
/// and ephemeral ports. An instance can be killed and started again on the same data directory
/// and database.
public final class SvcdCluster: Sendable {
    /// The database every instance uses.
    public let databaseURL: String
    /// Holds every instance's data directory (`<root>/<i>/data`) and stderr files; removed by `stop()`.
    public let root: String
    /// Arguments every instance gets after the store's (e.g. `--database-connections 8`).
    public let arguments: [String]
    /// Instances that differ from the others: their own database URL, launcher or arguments.
    public let overrides: [Int: Override]

    /// How one instance differs from the others.
    public struct Override: Sendable {
        /// Its database URL instead of the cluster's (e.g. another address of the same server).
        public var databaseURL: String?
        /// A command svcd runs through (e.g. `ip netns exec NAME`: see ``SvcdChild/launch``).
        public var launcher: [String]
        /// Arguments after the cluster's.
        public var arguments: [String]

        public init(databaseURL: String? = nil, launcher: [String] = [], arguments: [String] = []) {
            self.databaseURL = databaseURL
            self.launcher = launcher
            self.arguments = arguments
        }
    }
    // The current process of each instance and its endpoints (replaced by `restart`).
    private let members: Mutex<[Member]>

    private struct Member: Sendable {
        let child: SvcdChild
        var endpoints: EndpointsFile?
    }

    private init(databaseURL: String, root: String, arguments: [String], overrides: [Int: Override], children: [SvcdChild]) {
        self.databaseURL = databaseURL
        self.root = root
        self.arguments = arguments
        self.overrides = overrides
        members = Mutex(children.map { Member(child: $0, endpoints: nil) })
    }

    /// Starts `instances` svcd processes on `databaseURL` at once (one right after the other,
    /// without waiting in between), `--seed-sample` on each when `seed`, and waits up to
    /// `readiness` seconds until every one has written its endpoints.json. Stops them all if
    /// any does not become ready. `overrides` sets some instances apart.
    public static func launch(
        instances: Int = 3, databaseURL: String, seed: Bool = false, arguments: [String] = [], overrides: [Int: Override] = [:],
        readiness: Double = 120
    ) async throws -> SvcdCluster {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("svcd-cluster-\(UUID().uuidString.prefix(8))").path
        var children: [SvcdChild] = []
        do {
            for index in 0..<instances {
                let override = overrides[index] ?? Override()
                children.append(try await SvcdChild.launch(
                    seed: seed, arguments: storeArguments(override.databaseURL ?? databaseURL) + arguments + override.arguments,
                    dataDirectory: dataDirectory(root: root, index), launcher: override.launcher))
            }
        } catch {
            for child in children { await child.stop() }
            try? FileManager.default.removeItem(atPath: root)
            throw error
        }
        let cluster = SvcdCluster(databaseURL: databaseURL, root: root, arguments: arguments, overrides: overrides, children: children)
        do {
            for index in 0..<instances {
                let endpoints = try await children[index].endpoints(timeout: readiness)
                cluster.members.withLock { $0[index].endpoints = endpoints }
            }
        } catch {
            await cluster.stop()
            throw error
        }
        return cluster
    }

    private static func storeArguments(_ databaseURL: String) -> [String] {
        ["--store", "postgres", "--database-url", databaseURL]
    }

    private static func dataDirectory(root: String, _ index: Int) -> String {
        URL(fileURLWithPath: root).appendingPathComponent(String(index)).appendingPathComponent("data").path
    }

    /// How many instances the cluster has (running or not).
    public var count: Int { members.withLock { $0.count } }

    /// The instances' indices.
    public var indices: Range<Int> { 0..<count }

    /// Instance `index`'s current process.
    public func child(_ index: Int) -> SvcdChild {
        members.withLock { $0[index].child }
    }

    /// Instance `index`'s data directory (the same across restarts).
    public func dataDirectory(_ index: Int) -> String {
        Self.dataDirectory(root: root, index)
    }

    /// The endpoints of instance `index`'s current process.
    public func endpoints(_ index: Int) throws -> EndpointsFile {
        try #require(members.withLock { $0[index].endpoints }, "instance \(index) has not written its endpoints.json")
    }

    /// The address of `useCase` on instance `index`.
    public func address(_ useCase: UseCaseName, on index: Int) throws -> String {
        try endpoints(index).address(useCase)
    }

    /// Kills instance `index` with SIGKILL and waits until it is gone.
    public func kill(_ index: Int) async throws {
        let child = child(index)
        child.send(signal: SIGKILL)
        guard await child.waitForExit(timeout: 10) else { throw ChildFailure("instance \(index) survived SIGKILL for 10 s") }
    }

    /// Starts instance `index` again (it must have exited) on its data directory and the same
    /// database, without `--seed-sample`, and waits for its new endpoints.
    @discardableResult
    public func restart(_ index: Int, readiness: Double = 60) async throws -> EndpointsFile {
        let old = child(index)
        guard !old.isRunning else { throw ChildFailure("instance \(index) still runs; kill it before restarting it") }
        let override = overrides[index] ?? Override()
        let child = try await SvcdChild.launch(
            seed: false, arguments: Self.storeArguments(override.databaseURL ?? databaseURL) + arguments + override.arguments,
            dataDirectory: dataDirectory(index), launcher: override.launcher)
        members.withLock { $0[index] = Member(child: child, endpoints: nil) }
        let endpoints = try await child.endpoints(timeout: readiness)
        members.withLock { $0[index].endpoints = endpoints }
        return endpoints
    }

    /// What every instance's current process wrote to stderr, for failure messages.
    public var stderrTexts: String {
        indices.map { "--- instance \($0) stderr ---\n\(child($0).stderrText.suffix(4000))" }.joined(separator: "\n")
    }

    /// The lines of every instance's stderr that contain `needle` (e.g. `"error"`), for failure
    /// messages where the last lines of ``stderrTexts`` may not reach the cause.
    public func stderrLines(containing needle: String) -> String {
        indices.map { index in
            let lines = child(index).stderrText.split(separator: "\n").filter { $0.contains(needle) }
            return "--- instance \(index): \(lines.count) lines with \"\(needle)\" ---\n" + lines.suffix(40).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Stops every instance (SIGTERM, then SIGKILL after a deadline; SIGCONT first, in case a
    /// test stopped one) and removes the root directory.
    public func stop() async {
        for index in indices {
            let child = child(index)
            child.send(signal: SIGCONT)
            await child.stop()
        }
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// Starts a cluster of `instances` svcd processes on `databaseURL`, runs `body` with it, and
/// always stops every instance (also when `body` throws).
public func withSvcdCluster<T>(
    instances: Int = 3, databaseURL: String, seed: Bool = false, arguments: [String] = [], overrides: [Int: SvcdCluster.Override] = [:],
    _ body: (SvcdCluster) async throws -> T
) async throws -> T {
    let cluster = try await SvcdCluster.launch(instances: instances, databaseURL: databaseURL, seed: seed, arguments: arguments, overrides: overrides)
    let result: T
    do {
        result = try await body(cluster)
    } catch {
        await cluster.stop()
        throw error
    }
    await cluster.stop()
    return result
}

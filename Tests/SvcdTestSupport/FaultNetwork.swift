import ChildProcess
import Foundation

/// A test host of the test's own: a network namespace joined to this machine by two veth pairs,
/// one for the clients' traffic and one for the database's, so that faults can be put on the
/// database link alone while clients still reach the svcd inside. A partition is a `pfifo`
/// queue of length 0 on both ends of the database link: every packet is dropped silently, as a
/// lost network drops it (this kernel has no `netem`; for added latency see ``DelayProxy``).
///
/// ```
/// this machine                          namespace
/// clientAddress (…1)  ── client link ── instanceAddress (…2)    svcd --host instanceAddress
/// databaseAddress (…5) ─ database link ─ (…6)                   svcd → databaseAddress:port
/// ```
///
/// Needs root (or CAP_NET_ADMIN), veth and iproute2's `ip` and `tc`; ``create()`` throws a
/// ``ChildFailure`` saying which command failed and why, so a test fails with that message rather
/// than skipping. ``remove()`` deletes the namespace and with it both pairs.
public final class FaultNetwork: Sendable {
    /// The namespace's name.
    public let name: String
    /// This machine's end of the client link.
    public let clientAddress: String
    /// The namespace's end of the client link: where svcd inside listens.
    public let instanceAddress: String
    /// This machine's end of the database link: where PostgreSQL listens for the namespace.
    public let databaseAddress: String
    private let hostClientLink: String
    private let namespaceClientLink: String
    private let hostDatabaseLink: String
    private let namespaceDatabaseLink: String

    /// The command that runs a program inside the namespace (it execs the program in place).
    public var launcher: [String] { [Self.ip, "netns", "exec", name] }

    private static let ip = "/usr/sbin/ip"
    private static let tc = "/usr/sbin/tc"

    private init(tag: String, subnet: (Int, Int)) {
        name = "svcnf-\(tag)"
        let prefix = "10.\(subnet.0).\(subnet.1)"
        clientAddress = "\(prefix).1"
        instanceAddress = "\(prefix).2"
        databaseAddress = "\(prefix).5"
        hostClientLink = "nfc\(tag)h"
        namespaceClientLink = "nfc\(tag)n"
        hostDatabaseLink = "nfd\(tag)h"
        namespaceDatabaseLink = "nfd\(tag)n"
    }

    /// Makes the namespace and both links, on a 10.x.y.0/29 no interface of this machine uses.
    public static func create() async throws -> FaultNetwork {
        let used = try await run(ip, ["-o", "-4", "addr", "show"], "list this machine's addresses")
        var generator = SystemRandomNumberGenerator()
        var subnet = (0, 0)
        repeat {
            subnet = (Int.random(in: 100..<200, using: &generator), Int.random(in: 0..<256, using: &generator))
        } while used.contains("10.\(subnet.0).\(subnet.1).")
        let network = FaultNetwork(tag: String(UInt32.random(in: 0..<0xFFFFF, using: &generator), radix: 16), subnet: subnet)
        do {
            try await network.build()
        } catch {
            await network.remove()
            throw error
        }
        return network
    }

    private func build() async throws {
        try await Self.run(Self.ip, ["netns", "add", name], "create a network namespace (this test needs root)")
        try await inside(["link", "set", "lo", "up"])
        for (host, namespace, hostAddress, namespaceAddress) in [
            (hostClientLink, namespaceClientLink, clientAddress, instanceAddress),
            (hostDatabaseLink, namespaceDatabaseLink, databaseAddress, String(databaseAddress.dropLast()) + "6"),
        ] {
            try await Self.run(Self.ip, ["link", "add", host, "type", "veth", "peer", "name", namespace], "create a veth pair")
            try await Self.run(Self.ip, ["link", "set", namespace, "netns", name], "move a veth end into the namespace")
            try await Self.run(Self.ip, ["addr", "add", "\(hostAddress)/30", "dev", host], "address a veth end")
            try await Self.run(Self.ip, ["link", "set", host, "up"], "bring a veth end up")
            try await inside(["addr", "add", "\(namespaceAddress)/30", "dev", namespace])
            try await inside(["link", "set", namespace, "up"])
        }
    }

    /// Drops every packet on the database link, both ways: the instance inside and the database
    /// no longer hear each other, and neither is told (no reset, no unreachable).
    public func partitionDatabase() async throws {
        try await Self.run(Self.tc, ["qdisc", "replace", "dev", hostDatabaseLink, "root", "pfifo", "limit", "0"], "partition the database link")
        try await Self.run(Self.ip, ["netns", "exec", name, Self.tc, "qdisc", "replace", "dev", namespaceDatabaseLink, "root", "pfifo", "limit", "0"],
                           "partition the database link")
    }

    /// Ends a partition.
    public func healDatabase() async throws {
        try await Self.run(Self.tc, ["qdisc", "del", "dev", hostDatabaseLink, "root"], "heal the database link")
        try await Self.run(Self.ip, ["netns", "exec", name, Self.tc, "qdisc", "del", "dev", namespaceDatabaseLink, "root"], "heal the database link")
    }

    /// Deletes the namespace (its veth ends, and so both pairs, go with it) and any pair a failed
    /// ``create()`` left outside it. Harmless twice.
    public func remove() async {
        _ = try? await SpawnedProcess.run(Self.ip, ["netns", "del", name], timeout: .seconds(30))
        for link in [hostClientLink, hostDatabaseLink] {
            _ = try? await SpawnedProcess.run(Self.ip, ["link", "del", link], timeout: .seconds(30))
        }
    }

    private func inside(_ arguments: [String]) async throws {
        try await Self.run(Self.ip, ["netns", "exec", name, Self.ip] + arguments, "configure the namespace")
    }

    @discardableResult
    private static func run(_ executable: String, _ arguments: [String], _ purpose: String) async throws -> String {
        let outcome = try await SpawnedProcess.run(executable, arguments, timeout: .seconds(30))
        guard outcome.exitStatus == 0 else {
            throw ChildFailure(
                "could not \(purpose): \(executable) \(arguments.joined(separator: " ")) failed (\(outcome.exitStatus.map { "exit \($0)" } ?? "killed")): \(outcome.stderr)")
        }
        return outcome.stdout
    }
}

/// Makes a ``FaultNetwork``, runs `body` with it, and always removes it.
public func withFaultNetwork<T>(_ body: (FaultNetwork) async throws -> T) async throws -> T {
    let network = try await FaultNetwork.create()
    let result: T
    do {
        result = try await body(network)
    } catch {
        await network.remove()
        throw error
    }
    await network.remove()
    return result
}

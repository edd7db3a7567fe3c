import Foundation
import Testing
import WireContract
import WireJSON
import WireTestSupport

/// Many DEALER clients at once against one use case of every instance of a cluster (or of the
/// instances named): client `c` talks to the `c mod n`-th of the n instances, each client on its
/// own thread and pipelining its share of the requests.
///
/// A request answered `unavailable` or `overloaded` (the contract: it had no effect, resend it)
/// is sent again on the same connection until it gets another answer; how often that happened is
/// reported, so a test can say how much of its accounting rests on those replies having had no
/// effect (its exact counts then prove they had none).
public struct ClusterRace: Sendable {
    /// The final reply to each request, in the order of the params.
    public let replies: [Reply]
    /// How often each transient code was answered and the request resent.
    public let resent: [String: Int]

    /// Codes that say "no effect, send it again".
    public static let transientCodes: Set<String> = ["unavailable", "overloaded"]

    /// Races `params` against `useCase` on `instances` (default: every instance of `cluster`)
    /// from `clients` clients and returns once every request has a final reply (a request
    /// without one after `timeoutMilliseconds` of silence fails the test).
    public static func run(
        _ cluster: SvcdCluster, _ useCase: UseCaseName, _ params: [JSONValue], clients: Int, on instances: [Int]? = nil,
        timeoutMilliseconds: Int32 = 30_000, maxResends: Int = 50
    ) async throws -> ClusterRace {
        let targets = instances ?? Array(cluster.indices)
        let addresses = try targets.map { try cluster.address(useCase, on: $0) }
        let instanceOf = { (client: Int) in targets[client % targets.count] }
        let shares = (0..<clients).map { client in Array(stride(from: client, to: params.count, by: clients)) }
        var replies = [Reply?](repeating: nil, count: params.count)
        var resent: [String: Int] = [:]
        try await withThrowingTaskGroup(of: ([(Int, Reply)], [String: Int]).self) { group in
            for (client, share) in shares.enumerated() where !share.isEmpty {
                let bodies = share.map { index in (index, request(id: String(index), params: params[index])) }
                let address = addresses[client % targets.count]
                group.addTask {
                    try await withClient(.dealer, address, receiveTimeout: timeoutMilliseconds) { connection in
                        try answers(to: bodies, on: connection, maxResends: maxResends)
                    }
                }
            }
            for try await (answered, codes) in group {
                for (index, reply) in answered { replies[index] = reply }
                resent.merge(codes, uniquingKeysWith: +)
            }
        }
        let final = try replies.enumerated().map { index, reply in
            try #require(reply, "no reply to request \(index) of \(params.count) (\(useCase) on instance \(instanceOf(index % clients)))")
        }
        if !resent.isEmpty {
            // Not a failure (the exact counts decide), but worth seeing in the log.
            print("ClusterRace \(useCase): \(params.count) requests, resent after \(resent.sorted { $0.key < $1.key })")
        }
        return ClusterRace(replies: final, resent: resent)
    }

    /// Sends every body, resends those answered with a transient code, and returns each final
    /// reply by index and the resend counts; stops early on a receive timeout.
    private static func answers(to bodies: [(Int, [UInt8])], on connection: WireClient, maxResends: Int) throws -> ([(Int, Reply)], [String: Int]) {
        let byIndex = Dictionary(uniqueKeysWithValues: bodies)
        for (_, body) in bodies { try connection.send(body: body) }
        var final: [(Int, Reply)] = []
        var resent: [String: Int] = [:]
        var resends = 0
        while final.count < bodies.count, let reply = try connection.receiveReply() {
            guard let index = reply.id?.stringValue.flatMap(Int.init), let body = byIndex[index] else { continue }
            if let code = reply.code, transientCodes.contains(code), resends < maxResends * bodies.count {
                resent[code, default: 0] += 1
                resends += 1
                try connection.send(body: body)
            } else {
                final.append((index, reply))
            }
        }
        return (final, resent)
    }

    /// How many final replies were ok and how many failed with each code.
    public var counts: ReplyTally { ReplyTally(replies) }

    /// "ok=… code=… (resent after: unavailable=…)" for failure messages.
    public var summary: String {
        resent.isEmpty ? counts.description : "\(counts) (resent after \(resent.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))"
    }
}

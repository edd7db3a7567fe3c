import Foundation
import SvcdTestSupport
import Testing
import WireJSON
import WireTestSupport
import ZeroMQ

/// Sends `bodies` to `address` from `clients` DEALER sockets at once, each on its own thread and
/// each pipelining its share, and returns the reply to every body in order. Request ids are
/// replaced by the body's index so replies can be matched.
func race(_ address: String, _ params: [JSONValue], clients: Int, timeoutMilliseconds: Int32 = 20_000) async throws -> [Reply] {
    let shares = (0..<clients).map { client in Array(stride(from: client, to: params.count, by: clients)) }
    var replies = [Reply?](repeating: nil, count: params.count)
    try await withThrowingTaskGroup(of: [(Int, Reply)].self) { group in
        for share in shares where !share.isEmpty {
            let bodies = share.map { request(id: String($0), params: params[$0]) }
            group.addTask {
                try await withClient(.dealer, address, receiveTimeout: timeoutMilliseconds) { client in
                    for body in bodies { try client.send(body: body) }
                    return try client.receiveReplies(upTo: bodies.count).compactMap { reply in
                        reply.id?.stringValue.flatMap { Int($0) }.map { ($0, reply) }
                    }
                }
            }
        }
        for try await answered in group {
            for (index, reply) in answered where params.indices.contains(index) { replies[index] = reply }
        }
    }
    return try replies.enumerated().map { index, reply in try #require(reply, "no reply to request \(index) of \(params.count)") }
}

/// One call that must succeed; returns its `result`.
@discardableResult
func succeed(_ address: String, _ params: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
    let reply = try await call(address, request(id: "setup", params: params))
    #expect(reply.ok == true, "\(reply)", sourceLocation: sourceLocation)
    return try #require(reply.result, "no result in \(reply)", sourceLocation: sourceLocation)
}

/// How many replies succeeded and how many failed with each code.
struct ReplyCounts: Equatable, CustomStringConvertible {
    var ok = 0
    var codes: [String: Int] = [:]

    init(_ replies: [Reply]) {
        for reply in replies {
            if reply.ok == true { ok += 1 } else { codes[reply.code ?? "unreadable", default: 0] += 1 }
        }
    }

    init(ok: Int, codes: [String: Int] = [:]) {
        self.ok = ok
        self.codes = codes
    }

    var description: String { "ok=\(ok) \(codes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))" }
}

import Foundation
import WireContract
import WireJSON
import ZeroMQ

/// Set-up calls to svcd, one at a time on a REQ socket, each answered `ok` or the call fails.
/// Blocking: run it on a dedicated thread (``onThread(_:)``).
struct LockstepCaller {
    let address: String

    /// Sends each `params` text in turn and returns the `result`s.
    func call(_ paramsList: [String]) throws -> [JSONValue] {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.req)
        defer { socket.close() }
        try socket.setLinger(0)
        try socket.setReceiveTimeout(30_000)
        try socket.connect(address)
        var frames: [[UInt8]] = []
        var results: [JSONValue] = []
        for params in paramsList {
            try socket.send(WireEnvelope.requestBytes(id: "setup", paramsJSON: params))
            guard try socket.receiveMultipart(into: &frames) != nil, let body = frames.last else {
                throw BenchFailure("no reply from \(address) within 30 s")
            }
            let reply = try JSONParser.parse(body)
            guard reply.replySucceeded, let result = reply.replyResult else {
                throw BenchFailure("set-up call to \(address) with \(params) failed: \(String(decoding: body, as: UTF8.self))")
            }
            results.append(result)
        }
        return results
    }
}

import LoadEngine
import WireContract
import WireJSON

extension LockstepCaller {
    /// Set-up calls to svcd at `address`, one at a time, each answered `ok` or the set-up fails:
    /// sends each `params` text in turn and returns the `result`s. Blocking: run it on a
    /// dedicated thread (``onThread(_:)``).
    static func setUp(_ address: String, _ paramsList: [String]) throws -> [JSONValue] {
        let caller = try LockstepCaller(address: address, timeoutMilliseconds: 30_000)
        defer { caller.close() }
        var results: [JSONValue] = []
        for params in paramsList {
            guard let body = try caller.call(WireEnvelope.requestBytes(id: "setup", paramsJSON: params))?.last else {
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

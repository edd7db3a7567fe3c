import WireContract
import WireJSON

extension LockstepCaller {
    /// Set-up calls to svcd at `address`, one at a time, each answered `ok` within 30 s or the
    /// set-up fails (``LoadFailure``): sends each `params` text in turn and returns the `result`s.
    /// Blocking: run it on a dedicated thread, never on the cooperative pool.
    public static func setUp(_ address: String, _ paramsList: [String]) throws(LoadFailure) -> [JSONValue] {
        let caller: LockstepCaller
        do { caller = try LockstepCaller(address: address, timeoutMilliseconds: 30_000) } catch {
            throw LoadFailure(.unavailable, "cannot call \(address): \(error)")
        }
        defer { caller.close() }
        var results: [JSONValue] = []
        for params in paramsList {
            let frames: [[UInt8]]?
            do { frames = try caller.call(WireEnvelope.requestBytes(id: "setup", paramsJSON: params)) } catch {
                throw LoadFailure(.unavailable, "calling \(address) failed: \(error)")
            }
            guard let body = frames?.last else { throw LoadFailure(.noAnswer, "no reply from \(address) within 30 s") }
            guard let reply = try? JSONParser.parse(body), reply.replySucceeded, let result = reply.replyResult else {
                throw LoadFailure(.serviceError, "set-up call to \(address) with \(params) failed: \(String(decoding: body, as: UTF8.self))")
            }
            results.append(result)
        }
        return results
    }
}

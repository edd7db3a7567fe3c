import WireContract
import WireJSON
import ZeroMQ

/// One read of an instance's event log: a request on a fresh REQ socket (linger 0), closed
/// before returning, as the client's use-case calls do (Lazy Pirate). Blocking: runs on a
/// thread of its own, never on Swift's cooperative pool.
enum EventLogExchange {
    /// The events after `after` (at most `limit`, only `types` when given) of the log at
    /// `endpoints`, within `timeout`.
    static func read(
        after: Int64, limit: Int, types: Set<EventType>?, endpoints: EventEndpoints, context: ZMQContext, timeout: Duration, requestID: String
    ) -> Result<EventLogPage, RestaurantClientError> {
        var params = JSONObject()
        params.append(key: WireEvent.Parameter.after.name, value: .int(Int(after)))
        params.append(key: WireEvent.Parameter.limit.name, value: .int(limit))
        if let types {
            params.append(key: WireEvent.Parameter.types.name, value: .array(types.map(\.rawValue).sorted().map(JSONValue.string)))
        }
        let body = WireEnvelope.request(id: requestID, params: params).encoded()
        let deadline = ContinuousClock.now + timeout
        let socket: ZMQSocket
        do {
            socket = try context.makeSocket(.req)
        } catch {
            return .failure(.unavailable("cannot create a socket: \(error)"))
        }
        defer { socket.close() }
        var frames: [[UInt8]] = []
        do {
            try socket.setLinger(0)
            try socket.setSendTimeout(milliseconds(until: deadline))
            if let (serverKey, keys) = endpoints.curve {
                try socket.setCurveClient(serverKey: serverKey, publicKey: keys.publicKey, secretKey: keys.secretKey)
            }
            try socket.connect(endpoints.log)
            try socket.send(body)
            try socket.setReceiveTimeout(milliseconds(until: deadline))
            guard try socket.receiveMultipart(into: &frames) != nil else { return .failure(.timeout) }
        } catch {
            if error == .again { return .failure(.timeout) }
            return .failure(.unavailable("cannot read the event log at \(endpoints.log): \(error)"))
        }
        guard frames.count == 1 else { return .failure(.malformedReply("expected one body frame, got \(frames.count)")) }
        switch FreelanceExchange.decode(frames[0], requestID: requestID) {
        case .success(let result):
            do throws(RestaurantClientError) {
                return .success(try EventLogPage(result))
            } catch {
                return .failure(error)
            }
        case .failure(.service(let code, let message, _)) where WireErrorCode(rawValue: code) == .gone:
            // `gone` says where the log resumes, in a member of its own.
            let error = (try? JSONParser.parse(frames[0]))?[WireEnvelope.Key.error]
            guard let firstSeq = error?[WireEvent.Result.firstSeq]?.intValue else {
                return .failure(.malformedReply("a gone error without an integer \(WireEvent.Result.firstSeq.name)"))
            }
            return .failure(.gone(firstSeq: Int64(firstSeq), message: message))
        case .failure(let error):
            return .failure(error)
        }
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let (seconds, attoseconds) = (deadline - ContinuousClock.now).components
        return Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}

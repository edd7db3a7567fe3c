import WireJSON
import ZeroMQ

/// Pipelined request/reply calls to use-case endpoints from one thread, for the stress run's
/// set-up and its invariant checks: up to `window` requests in flight on one DEALER per use
/// case, replies matched by id.
///
/// Transient refusals (`overloaded`, `unavailable`, `deadline_exceeded`) had no effect, so they
/// are sent again after a short pause; no answer within the timeout fails the whole call (a write
/// is never sent twice after silence).
final class BatchCaller {
    private let context: ZMQContext
    private let endpoints: ServiceEndpoints
    private let timeoutNanoseconds: UInt64
    private var sockets: [String: ZMQSocket] = [:]
    private var sequence: UInt64 = 0
    private var frames: [[UInt8]] = []

    /// Codes answered before the request had any effect (the contract's retryable ones).
    static let transientCodes: Set<String> = ["overloaded", "unavailable", "deadline_exceeded"]

    init(endpoints: ServiceEndpoints, timeoutMilliseconds: Int) throws(CtlFailure) {
        self.endpoints = endpoints
        self.timeoutNanoseconds = UInt64(timeoutMilliseconds) * 1_000_000
        do throws(ZMQError) {
            context = try ZMQContext(ioThreads: 1, blocky: false)
        } catch {
            throw CtlFailure(ExitStatus.unavailable, "cannot create a ZeroMQ context: \(error)")
        }
    }

    deinit {
        for socket in sockets.values { socket.close() }
        context.terminate()
    }

    private func socket(for useCase: String) throws(CtlFailure) -> ZMQSocket {
        if let socket = sockets[useCase] { return socket }
        let address = try endpoints.address(ofUseCase: useCase)
        do throws(ZMQError) {
            let socket = try context.makeSocket(.dealer)
            try socket.setLinger(0)
            try socket.connect(address)
            sockets[useCase] = socket
            return socket
        } catch {
            throw CtlFailure(ExitStatus.unavailable, "cannot connect to \(useCase) at \(address): \(error)")
        }
    }

    /// Calls `useCase` once per element of `paramsList` and returns the reply envelopes in the
    /// same order.
    func callAll(_ useCase: String, _ paramsList: [JSONObject], window: Int = 64) throws(CtlFailure) -> [JSONValue] {
        let socket = try socket(for: useCase)
        var replies = [JSONValue?](repeating: nil, count: paramsList.count)
        var queue: [(index: Int, attempts: Int)] = paramsList.indices.reversed().map { ($0, 0) }
        var pending: [String: (index: Int, sentAt: UInt64, attempts: Int)] = [:]
        var retryAt: [(index: Int, at: UInt64, attempts: Int)] = []
        var remaining = paramsList.count
        let poller = ZMQPoller()
        _ = poller.add(socket)
        while remaining > 0 {
            let now = monotonicNanoseconds()
            // Pauses over: back into the queue.
            retryAt.removeAll { entry in
                guard entry.at <= now else { return false }
                queue.append((entry.index, entry.attempts))
                return true
            }
            while pending.count < window, let (index, attempts) = queue.popLast() {
                sequence += 1
                let id = "stress-setup-\(sequence)"
                let request: JSONValue = ["v": 1, "id": .string(id), "params": .object(paramsList[index])]
                do throws(ZMQError) {
                    try socket.sendMultipart([[], request.encoded()])
                } catch {
                    throw CtlFailure(ExitStatus.unavailable, "cannot send to \(useCase): \(error)")
                }
                pending[id] = (index, now, attempts)
            }
            if let oldest = pending.values.map(\.sentAt).min(), now - oldest > timeoutNanoseconds {
                throw CtlFailure(
                    ExitStatus.timedOut, "no answer from \(useCase) within \(formatSeconds(Double(timeoutNanoseconds) / 1e9))", noAnswer: true)
            }
            do throws(ZMQError) {
                _ = try poller.poll(timeoutMilliseconds: 10)
                while try socket.receiveMultipart(into: &frames, dontWait: true) != nil {
                    guard let body = frames.last, let reply = try? JSONParser.parse(body),
                        let id = reply["id"]?.stringValue, let entry = pending.removeValue(forKey: id)
                    else { continue }
                    if reply["ok"]?.boolValue != true, let code = reply["error"]?["code"]?.stringValue,
                        Self.transientCodes.contains(code), entry.attempts < 50
                    {
                        let pause = UInt64(min(entry.attempts + 1, 20)) * 5_000_000
                        retryAt.append((entry.index, monotonicNanoseconds() + pause, entry.attempts + 1))
                        continue
                    }
                    replies[entry.index] = reply
                    remaining -= 1
                }
            } catch {
                if error == .interrupted { continue }
                throw CtlFailure(ExitStatus.unavailable, "talking to \(useCase) failed: \(error)")
            }
        }
        return replies.map { $0 ?? .null }
    }

    /// Calls `useCase` once and returns the reply envelope.
    func call(_ useCase: String, _ params: JSONObject) throws(CtlFailure) -> JSONValue {
        try callAll(useCase, [params])[0]
    }

    /// The `result` of each successful reply; the first error reply ends the run with exit 1.
    func results(_ useCase: String, _ paramsList: [JSONObject], window: Int = 64) throws(CtlFailure) -> [JSONValue] {
        var results: [JSONValue] = []
        results.reserveCapacity(paramsList.count)
        for (offset, envelope) in try callAll(useCase, paramsList, window: window).enumerated() {
            guard envelope["ok"]?.boolValue == true, let result = envelope["result"] else {
                throw CtlFailure(
                    ExitStatus.serviceError,
                    "\(useCase) \(JSONValue.object(paramsList[offset]).description) failed: \(AdminClient.describeError(envelope))")
            }
            results.append(result)
        }
        return results
    }

    /// Every element of a paged list (`limit`/`cursor`/`nextCursor`), for each base params object;
    /// a base whose call fails gets the error (`code: message`) instead.
    func allPages(_ useCase: String, _ bases: [JSONObject], listKey: String, limit: Int = 500) throws(CtlFailure) -> [Result<[JSONValue], PageError>] {
        var collected = [[JSONValue]](repeating: [], count: bases.count)
        var failed: [Int: PageError] = [:]
        var cursors: [(index: Int, cursor: String?)] = bases.indices.map { ($0, nil) }
        while !cursors.isEmpty {
            let params = cursors.map { entry -> JSONObject in
                var object = bases[entry.index]
                object.append(key: "limit", value: .int(limit))
                if let cursor = entry.cursor { object.append(key: "cursor", value: .string(cursor)) }
                return object
            }
            let envelopes = try callAll(useCase, params)
            var next: [(index: Int, cursor: String?)] = []
            for (entry, envelope) in zip(cursors, envelopes) {
                guard envelope["ok"]?.boolValue == true, let result = envelope["result"] else {
                    failed[entry.index] = PageError(description: AdminClient.describeError(envelope))
                    continue
                }
                collected[entry.index].append(contentsOf: result[listKey]?.arrayValue ?? [])
                if let cursor = result["nextCursor"]?.stringValue { next.append((entry.index, cursor)) }
            }
            cursors = next
        }
        return bases.indices.map { index in failed[index].map { .failure($0) } ?? .success(collected[index]) }
    }
}

/// An error reply to one of the calls of ``BatchCaller/allPages(_:_:listKey:limit:)``.
struct PageError: Error, CustomStringConvertible {
    /// `code: message`.
    let description: String
}

import BenchmarkSupport
import WireContract
import WireJSON
import ZeroMQ

/// Pipelined request/reply calls to use-case endpoints from one thread, for the stress run's
/// set-up, the resolution of unknown outcomes and the invariant checks: up to `window` requests
/// in flight on one DEALER per use case, replies matched by id.
///
/// Transient refusals (`overloaded`, `unavailable`, `deadline_exceeded`) had no effect, so they
/// are sent again after a short pause. Calls go to one instance of the cluster at a time; when it
/// stops answering (no answer within the timeout) or answers `unavailable`, the caller marks it
/// down and moves to the next live one (unless pinned to one instance). After silence a request
/// is sent again only where that is harmless: a read, or a write whose idempotency key svcd binds
/// (``keysHonoured``); a write is never sent twice otherwise.
final class BatchCaller {
    private let context: ZMQContext
    private let cluster: LoadCluster
    private let pinned: Bool
    private let timeoutNanoseconds: UInt64
    private let keyPrefix: String
    /// The instance calls go to now.
    private(set) var current: Int
    private var sockets: [UseCaseName: ZMQSocket] = [:]
    private var sequence: UInt64 = 0
    private var keySequence: UInt64 = 0
    private var frames: [[UInt8]] = []
    /// Instances this caller itself found silent or draining.
    private var failedHere: Set<Int> = []

    /// Whether svcd binds idempotency keys (see ``SharedStoreProbe``), so that a keyed write may
    /// be sent again after silence.
    var keysHonoured = false

    /// Whether `code` is answered before the request had any effect (the contract's codes that
    /// are safe to resend).
    static func isTransient(_ code: String) -> Bool {
        WireErrorCode(rawValue: code)?.isSafeToResend == true
    }

    /// Calls `instance` only, or (`nil`) the first live instance of `cluster` and, when it
    /// fails, the next. `keyPrefix` starts the idempotency keys of ``freshKeys(_:)``.
    init(cluster: LoadCluster, instance: Int? = nil, timeoutMilliseconds: Int, keyPrefix: String) throws(LoadFailure) {
        self.cluster = cluster
        self.pinned = instance != nil
        self.current = instance ?? cluster.firstLive(from: 0)
        self.timeoutNanoseconds = UInt64(timeoutMilliseconds) * 1_000_000
        self.keyPrefix = keyPrefix
        do throws(ZMQError) {
            context = try ZMQContext(ioThreads: 1, blocky: false)
        } catch {
            throw LoadFailure(.unavailable, "cannot create a ZeroMQ context: \(error)")
        }
    }

    deinit {
        for socket in sockets.values { socket.close() }
        context.terminate()
    }

    /// `count` idempotency keys never used before in this run.
    func freshKeys(_ count: Int) -> [String] {
        (0..<count).map { _ in
            keySequence += 1
            return "\(keyPrefix)-\(keySequence)"
        }
    }

    private var instanceName: String { cluster.instances[current].name }

    private func socket(for useCase: UseCaseName) throws(LoadFailure) -> ZMQSocket {
        if let socket = sockets[useCase] { return socket }
        let instance = cluster.instances[current]
        guard let address = try instance.address(of: useCase) else {
            throw LoadFailure(.unavailable, instance.absence ?? "svcd is not running at \(instanceName)")
        }
        do throws(ZMQError) {
            let socket = try context.makeClientSocket(connectingTo: address, curve: instance.credentials)
            sockets[useCase] = socket
            return socket
        } catch {
            throw LoadFailure(.unavailable, "cannot connect to \(useCase) at \(address): \(error)")
        }
    }

    /// Moves to the next live instance, marking this one down; `false` (and no move) when pinned
    /// or when there is no other live instance. The socket of `keeping` is handed back, still
    /// open, so replies already on their way can be read; the others are closed.
    private func failOver(because reason: String, keeping useCase: UseCaseName) -> (moved: Bool, retired: ZMQSocket?) {
        guard !pinned, cluster.canFailOver else { return (false, nil) }
        cluster.markDown(current, reason: reason)
        failedHere.insert(current)
        // When the clients have marked every other instance down (perhaps after one slow
        // answer), those this caller has not seen fail itself are still worth a try.
        let others = (1..<cluster.instances.count).map { (current + $0) % cluster.instances.count }
        guard let next = cluster.nextLive(after: current)
            ?? others.first(where: { !failedHere.contains($0) && cluster.instances[$0].endpoints != nil })
        else { return (false, nil) }
        let retired = sockets.removeValue(forKey: useCase)
        for socket in sockets.values { socket.close() }
        sockets.removeAll()
        current = next
        return (true, retired)
    }

    /// Before a call: leaves an instance others have found down for the first live one.
    private func avoidDownInstance() {
        guard !pinned, cluster.isDown(current) else { return }
        let live = cluster.firstLive(from: current)
        guard live != current else { return }
        for socket in sockets.values { socket.close() }
        sockets.removeAll()
        current = live
    }

    /// Calls `useCase` once per element of `paramsList` (writes with the idempotency key of the
    /// same index in `keys`) and returns the reply envelopes in the same order. A request that
    /// gets no answer within the timeout, on any instance it may go to, ends the call with
    /// exit 75.
    func callAll(_ useCase: UseCaseName, _ paramsList: [JSONObject], keys: [String]? = nil, window: Int = 64) throws(LoadFailure) -> [JSONValue] {
        try exchange(useCase, paramsList, keys: keys, window: window, giveUpSilently: false).map { $0 ?? .null }
    }

    /// Like ``callAll(_:_:keys:window:)``, but a request without an answer is `nil` instead of an
    /// error (once the only instance left has been silent for the timeout, every request not
    /// answered yet is given up on).
    func callEach(_ useCase: UseCaseName, _ paramsList: [JSONObject], keys: [String]? = nil, window: Int = 64) throws(LoadFailure) -> [JSONValue?] {
        try exchange(useCase, paramsList, keys: keys, window: window, giveUpSilently: true)
    }

    private struct InFlight {
        let index: Int
        let sentAt: UInt64
        let attempts: Int
        let instance: Int
    }

    private func exchange(
        _ useCase: UseCaseName, _ paramsList: [JSONObject], keys: [String]?, window: Int, giveUpSilently: Bool
    ) throws(LoadFailure) -> [JSONValue?] {
        avoidDownInstance()
        let resendableAfterSilence = keys == nil || keysHonoured
        var replies = [JSONValue?](repeating: nil, count: paramsList.count)
        var queue: [(index: Int, attempts: Int)] = paramsList.indices.reversed().map { ($0, 0) }
        var pending: [String: InFlight] = [:]
        var retryAt: [(index: Int, at: UInt64, attempts: Int)] = []
        var remaining = paramsList.count
        // Sockets of instances left during this call: replies to what was sent there still count.
        var retired: [ZMQSocket] = []
        defer { for socket in retired { socket.close() } }
        let poller = ZMQPoller()
        var polled: [ZMQSocket] = []

        func giveUp(_ index: Int) {
            replies[index] = nil
            remaining -= 1
        }

        while remaining > 0 {
            let now = MonotonicClock.nanoseconds()
            // Pauses over: back into the queue.
            retryAt.removeAll { entry in
                guard entry.at <= now else { return false }
                queue.append((entry.index, entry.attempts))
                return true
            }
            let socket = try socket(for: useCase)
            if !polled.contains(where: { $0 === socket }) {
                polled.append(socket)
                poller.add(socket)
            }
            while pending.count < window, let (index, attempts) = queue.popLast() {
                sequence += 1
                let id = "stress-setup-\(sequence)"
                let envelope = WireEnvelope.request(id: id, params: paramsList[index], idempotencyKey: keys?[index])
                do throws(ZMQError) {
                    try socket.sendMultipart([[], envelope.encoded()])
                } catch {
                    throw LoadFailure(.unavailable, "cannot send to \(useCase): \(error)")
                }
                pending[id] = InFlight(index: index, sentAt: now, attempts: attempts, instance: current)
            }

            let silent = pending.filter { now - $0.value.sentAt > timeoutNanoseconds }
            if !silent.isEmpty {
                let waited = Wording.seconds(Double(timeoutNanoseconds) / 1e9)
                let silentHere = silent.values.contains { $0.instance == current }
                let move = silentHere ? failOver(because: "no answer within \(waited)", keeping: useCase) : (moved: false, retired: nil)
                if let socket = move.retired { retired.append(socket) }
                for (id, entry) in silent {
                    pending.removeValue(forKey: id)
                    if move.moved, resendableAfterSilence {
                        queue.append((entry.index, entry.attempts))
                    } else if giveUpSilently {
                        giveUp(entry.index)
                    } else {
                        let place = cluster.canFailOver ? " (instance \(cluster.instances[entry.instance].name))" : ""
                        let notAgain = move.moved ? "; a write is not sent twice, as svcd does not bind idempotency keys" : ""
                        throw LoadFailure(.noAnswer, "no answer from \(useCase)\(place) within \(waited)\(notAgain)")
                    }
                }
                if move.moved {
                    // The rest of what waits on the silent instance goes to the next one too, where that is harmless.
                    for (id, entry) in pending where entry.instance != current && resendableAfterSilence {
                        pending.removeValue(forKey: id)
                        queue.append((entry.index, entry.attempts))
                    }
                } else if silentHere, giveUpSilently {
                    // Nowhere else to go: nothing more will be answered.
                    for index in pending.values.map(\.index) + queue.map(\.index) + retryAt.map(\.index) { giveUp(index) }
                    break
                }
                continue
            }

            do throws(ZMQError) {
                _ = try poller.poll(timeoutMilliseconds: 10)
                for socket in polled {
                    while try socket.receiveMultipart(into: &frames, dontWait: true) != nil {
                        guard let body = frames.last, let reply = try? JSONParser.parse(body),
                            let id = reply[WireEnvelope.Key.id]?.stringValue, let entry = pending.removeValue(forKey: id)
                        else { continue }
                        if !reply.replySucceeded, let code = reply.replyErrorCode, Self.isTransient(code) {
                            // `unavailable` had no effect and the instance is going away: straight to the next one.
                            if code == WireErrorCode.unavailable.rawValue {
                                if entry.instance != current {
                                    queue.append((entry.index, entry.attempts))
                                    continue
                                }
                                let move = failOver(because: "answered unavailable", keeping: useCase)
                                if let socket = move.retired { retired.append(socket) }
                                if move.moved {
                                    queue.append((entry.index, entry.attempts))
                                    continue
                                }
                            }
                            if entry.attempts < 50 {
                                let pause = UInt64(min(entry.attempts + 1, 20)) * 5_000_000
                                retryAt.append((entry.index, MonotonicClock.nanoseconds() + pause, entry.attempts + 1))
                                continue
                            }
                        }
                        replies[entry.index] = reply
                        remaining -= 1
                    }
                }
            } catch {
                if error == .interrupted { continue }
                throw LoadFailure(.unavailable, "talking to \(useCase) failed: \(error)")
            }
        }
        return replies
    }

    /// Calls `useCase` once and returns the reply envelope.
    func call(_ useCase: UseCaseName, _ params: JSONObject) throws(LoadFailure) -> JSONValue {
        try callAll(useCase, [params])[0]
    }

    /// The `result` of each successful reply; the first error reply ends the run with exit 1.
    /// `write` gives every request a fresh idempotency key.
    func results(_ useCase: UseCaseName, _ paramsList: [JSONObject], write: Bool = false, window: Int = 64) throws(LoadFailure) -> [JSONValue] {
        var results: [JSONValue] = []
        results.reserveCapacity(paramsList.count)
        let keys = write ? freshKeys(paramsList.count) : nil
        for (offset, envelope) in try callAll(useCase, paramsList, keys: keys, window: window).enumerated() {
            guard envelope.replySucceeded, let result = envelope.replyResult else {
                throw LoadFailure(
                    .serviceError,
                    "\(useCase) \(JSONValue.object(paramsList[offset]).description) failed: \(Wording.error(envelope))")
            }
            results.append(result)
        }
        return results
    }

    /// Every element of a paged list (`limit`/`cursor`/`nextCursor`), for each base params object;
    /// a base whose call fails gets the error (`code: message`) instead.
    func allPages(_ useCase: UseCaseName, _ bases: [JSONObject], listKey: String, limit: Int = 500) throws(LoadFailure) -> [Result<[JSONValue], PageError>] {
        var collected = [[JSONValue]](repeating: [], count: bases.count)
        var failed: [Int: PageError] = [:]
        var cursors: [(index: Int, cursor: String?)] = bases.indices.map { ($0, nil) }
        while !cursors.isEmpty {
            let params = cursors.map { entry -> JSONObject in
                var object = bases[entry.index]
                object.append(key: WireMember.limit.name, value: .int(limit))
                if let cursor = entry.cursor { object.append(key: WireMember.cursor.name, value: .string(cursor)) }
                return object
            }
            let envelopes = try callAll(useCase, params)
            var next: [(index: Int, cursor: String?)] = []
            for (entry, envelope) in zip(cursors, envelopes) {
                guard envelope.replySucceeded, let result = envelope.replyResult else {
                    failed[entry.index] = PageError(description: Wording.error(envelope))
                    continue
                }
                collected[entry.index].append(contentsOf: result[listKey]?.arrayValue ?? [])
                if let cursor = result[WireMember.nextCursor.name]?.stringValue { next.append((entry.index, cursor)) }
            }
            cursors = next
        }
        return bases.indices.map { index in failed[index].map { .failure($0) } ?? .success(collected[index]) }
    }
}

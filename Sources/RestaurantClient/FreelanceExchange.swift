import Foundation
import WireContract
import WireJSON
import ZeroMQ

/// The blocking half of the client: one call's request/reply exchange, failing over between
/// the instances of a ``FailoverRoster`` (Freelance) with a fresh socket per attempt (Lazy
/// Pirate).
///
/// Everything here runs on a dedicated `Thread` started per call (never on Swift's cooperative
/// pool). Each attempt creates its own REQ socket on that thread (linger 0, send and receive
/// timeouts within the attempt's deadline) and closes it before the next attempt, so a socket
/// stuck behind a lost request is never reused and a late reply can never be mistaken for the
/// answer to a newer request.
struct FreelanceExchange: Sendable {
    /// What one call needs to know.
    struct Job: Sendable {
        let useCase: UseCaseName
        let requestID: String
        /// The envelope's key (the same bytes go out on every attempt); `nil` for reads.
        let idempotencyKey: String?
        let body: [UInt8]
        let options: RestaurantClientOptions
        /// Called once per attempt (metrics and tests); runs on the I/O thread.
        let onAttempt: @Sendable (RestaurantClientAttempt) -> Void
    }

    let context: ZMQContext
    let roster: FailoverRoster

    /// Runs `job` on a new thread and resumes with its outcome.
    func run(_ job: Job) async -> Result<JSONObject, RestaurantClientError> {
        let context = self.context
        let roster = self.roster
        return await DedicatedThread.run(named: "rc-\(job.useCase.rawValue)") { () -> Result<JSONObject, RestaurantClientError> in
            FreelanceExchange.exchange(job, roster: roster, context: context)
        }
    }

    /// An instance chosen for an attempt.
    private struct Target {
        let instance: Int
        let address: String
        let fileStamp: EndpointsFileStamp?
        /// CURVE: the server's public key and our pair; `nil`: plaintext.
        let curve: (serverKey: String, clientKeys: ClientKeys)?
    }

    /// The blocking exchange with failover and retries. Must run on a thread of its own.
    static func exchange(_ job: Job, roster: FailoverRoster, context: ZMQContext) -> Result<JSONObject, RestaurantClientError> {
        let attempts = job.options.maxAttempts(instanceCount: roster.count)
        let turn = roster.nextTurn()
        var lastTried = Array(repeating: -1, count: roster.count)
        // An instance without a readable endpoints.json or without this use case stays out for
        // the rest of the call: asking again within one call would only repeat the answer.
        var excluded = Set<Int>()
        var whyExcluded: RestaurantClientError?
        var lastFailure: RestaurantClientError?
        // The first failure after which this write may have taken effect (a timeout, or an error
        // whose outcome is unknown). It is what the call fails with when the attempts run out: a
        // later transient refusal speaks only for its own attempt, not for the earlier one.
        var effectUnknown: RestaurantClientError?

        for attempt in 0..<attempts {
            let order = roster.failoverOrder(turn: turn, lastTried: lastTried, excluded: excluded)
            guard let target = firstUsable(
                of: order, for: job.useCase, roster: roster, clientKeys: job.options.clientKeys, excluded: &excluded, why: &whyExcluded
            ) else {
                break
            }

            if lastTried[target.instance] >= 0 { pause(job.options.backoff(beforeResend: attempt)) }
            lastTried[target.instance] = attempt
            job.onAttempt(RestaurantClientAttempt(
                useCase: job.useCase, number: attempt, instance: target.instance, address: target.address,
                idempotencyKey: job.idempotencyKey))

            switch attemptOnce(job, target: target, context: context) {
            case .reply(let reply):
                switch decode(reply, requestID: job.requestID) {
                case .success(let result):
                    roster.recordReply(target.instance)
                    return .success(result)
                case .failure(.service(let code, let message, let outcome)):
                    let wireCode = WireErrorCode(rawValue: code)
                    if wireCode == .unavailable {
                        roster.recordFailure(target.instance, fileStamp: target.fileStamp)
                    } else {
                        roster.recordReply(target.instance)
                    }
                    let error = RestaurantClientError.service(code: code, message: message, outcome: outcome)
                    guard mayResend(after: wireCode, outcome: error.wireOutcome, job) else { return .failure(error) }
                    if error.wireOutcome == .unknown { effectUnknown = effectUnknown ?? error }
                    lastFailure = error
                case .failure(let error):
                    return .failure(error)
                }
            case .timedOut:
                roster.recordFailure(target.instance, fileStamp: target.fileStamp)
                guard mayResendAfterTimeout(job) else { return .failure(.timeout) }
                if job.useCase.writes { effectUnknown = effectUnknown ?? .timeout }
                lastFailure = .timeout
            case .unreachable(let error):
                roster.recordFailure(target.instance, fileStamp: target.fileStamp)
                lastFailure = error
            case .localFailure(let error), .malformedReply(let error):
                return .failure(error)
            }
        }
        return .failure(effectUnknown ?? lastFailure ?? whyExcluded ?? .timeout)
    }

    /// The first instance of `order` that has an address for `useCase` now; the others it
    /// looks at join `excluded`, with the reason in `why` (an unreadable `endpoints.json` also
    /// starts a cool-down).
    private static func firstUsable(
        of order: [Int], for useCase: UseCaseName, roster: FailoverRoster, clientKeys: ClientKeys?, excluded: inout Set<Int>,
        why: inout RestaurantClientError?
    ) -> Target? {
        for index in order {
            switch roster.instances[index].resolve() {
            case .failure(let error):
                roster.recordFailure(index, fileStamp: nil)
                excluded.insert(index)
                why = error
            case .success(let resolved):
                if let address = resolved.addresses[useCase] {
                    guard let serverKey = resolved.serverKey else {
                        return Target(instance: index, address: address, fileStamp: resolved.stamp, curve: nil)
                    }
                    if let keys = roster.instances[index].clientKeys ?? clientKeys {
                        return Target(instance: index, address: address, fileStamp: resolved.stamp, curve: (serverKey, keys))
                    }
                    excluded.insert(index)
                    why = .invalidArgument(
                        "instance \(index) serves CURVE only (svcd --client-keys): give RestaurantClientOptions.clientKeys or SvcdInstance.keyed(_:clientKeys:)")
                    continue
                }
                excluded.insert(index)
                why = .unavailable("no address for \(useCase.rawValue)")
            }
        }
        return nil
    }

    private enum Attempt {
        case reply([UInt8])
        /// No reply within the attempt's timeout; the request may or may not have arrived.
        case timedOut
        /// The address could not be connected or sent to.
        case unreachable(RestaurantClientError)
        /// This process could not make a socket; no instance would fare better.
        case localFailure(RestaurantClientError)
        /// Something answered, but not with one body frame.
        case malformedReply(RestaurantClientError)
    }

    /// One send/receive on a fresh REQ socket, closed before returning; at most
    /// ``RestaurantClientOptions/timeout`` from socket creation to reply.
    private static func attemptOnce(_ job: Job, target: Target, context: ZMQContext) -> Attempt {
        let address = target.address
        let clock = ContinuousClock()
        let deadline = clock.now + job.options.timeout
        let socket: ZMQSocket
        do {
            socket = try context.makeSocket(.req)
        } catch {
            return .localFailure(.unavailable("cannot create a socket: \(error)"))
        }
        defer { socket.close() }
        do {
            try socket.setLinger(0)
            try socket.setSendTimeout(milliseconds(deadline - clock.now))
            if let (serverKey, keys) = target.curve {
                try socket.setCurveClient(serverKey: serverKey, publicKey: keys.publicKey, secretKey: keys.secretKey)
            }
            try socket.connect(address)
        } catch {
            return .unreachable(.unavailable("cannot connect to \(address) for \(job.useCase.rawValue): \(error)"))
        }
        do {
            try socket.send(job.body)
        } catch {
            if error == .again { return .timedOut }
            return .unreachable(.unavailable("cannot send to \(address): \(error)"))
        }
        var frames: [[UInt8]] = []
        do {
            try socket.setReceiveTimeout(milliseconds(deadline - clock.now))
            guard try socket.receiveMultipart(into: &frames) != nil else { return .timedOut }
        } catch {
            return .unreachable(.unavailable("cannot receive from \(address): \(error)"))
        }
        guard frames.count == 1 else {
            return .malformedReply(.malformedReply("expected one body frame, got \(frames.count)"))
        }
        return .reply(frames[0])
    }

    /// Checks the reply envelope and returns `result`, or the service error.
    static func decode(_ body: [UInt8], requestID: String) -> Result<JSONObject, RestaurantClientError> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            return .failure(.malformedReply("the reply is not JSON: \(error)"))
        }
        if let id = value[WireEnvelope.Key.id], !id.isNull, id.stringValue != requestID {
            return .failure(.malformedReply("the reply's id \(id) does not match the request's \(requestID)"))
        }
        switch WireEnvelope.readReply(value) {
        case .success((_, .success(let result))): return .success(result)
        case .success((_, .failure(let code, let message, let outcome))): return .failure(.service(code: code, message: message, outcome: outcome))
        case .failure(let shape): return .failure(.malformedReply(shape.description))
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, ms))
    }

    private static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        if micros > 0 { usleep(UInt32(clamping: micros)) }
    }
}

import Foundation
import WireJSON
import ZeroMQ

/// The blocking half of the client: one request/reply exchange with Lazy Pirate retries.
///
/// Everything here runs on a dedicated `Thread` started per call (never on Swift's cooperative
/// pool). Each attempt creates its own REQ socket on that thread (linger 0, receive and send
/// timeouts) and closes it before the next attempt, so a socket stuck behind a lost request is
/// never reused and a late reply can never be mistaken for the answer to a newer request.
struct LazyPirate: Sendable {
    /// What one exchange needs to know.
    struct Job: Sendable {
        let useCase: UseCase
        let address: String
        let requestID: String
        let body: [UInt8]
        let options: RestaurantClientOptions
        /// Called once per attempt (tests and metrics); runs on the I/O thread.
        let onAttempt: @Sendable (UseCase, Int) -> Void
    }

    let context: ZMQContext

    /// Runs `job` on a new thread and resumes with its outcome.
    func run(_ job: Job) async -> Result<JSONObject, RestaurantClientError> {
        let context = self.context
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result<JSONObject, RestaurantClientError>, Never>) in
            let thread = Thread {
                continuation.resume(returning: LazyPirate.exchange(job, context: context))
            }
            thread.name = "RestaurantClient \(job.useCase.rawValue)"
            thread.start()
        }
    }

    /// The blocking exchange with retries. Must run on a thread of its own.
    static func exchange(_ job: Job, context: ZMQContext) -> Result<JSONObject, RestaurantClientError> {
        let timeoutMs = milliseconds(job.options.timeout)
        var attempt = 0
        while true {
            job.onAttempt(job.useCase, attempt)
            let mayRetry = attempt < job.options.retries
            switch attemptOnce(job, context: context, timeoutMs: timeoutMs) {
            case .reply(let reply):
                switch decode(reply, requestID: job.requestID) {
                case .success(let result):
                    return .success(result)
                case .failure(.service(let code, let message)):
                    if mayRetry && WireCode(code).isSafeToResend { break }
                    return .failure(.service(code: code, message: message))
                case .failure(let error):
                    return .failure(error)
                }
            case .timedOut:
                // A write that timed out may have been executed: never resend it automatically.
                guard mayRetry && job.useCase.isIdempotentRead else { return .failure(.timeout) }
            case .failed(let error):
                return .failure(error)
            }
            pause(job.options.backoff, times: 1 << min(attempt, 10))
            attempt += 1
        }
    }

    private enum Attempt {
        case reply([UInt8])
        case timedOut
        case failed(RestaurantClientError)
    }

    /// One send/receive on a fresh REQ socket, closed before returning.
    private static func attemptOnce(_ job: Job, context: ZMQContext, timeoutMs: Int32) -> Attempt {
        let socket: ZMQSocket
        do {
            socket = try context.makeSocket(.req)
        } catch {
            return .failed(.unavailable("cannot create a socket: \(error)"))
        }
        defer { socket.close() }
        do {
            try socket.setLinger(0)
            try socket.setReceiveTimeout(timeoutMs)
            try socket.setSendTimeout(timeoutMs)
            try socket.connect(job.address)
        } catch {
            return .failed(.unavailable("cannot connect to \(job.address) for \(job.useCase.rawValue): \(error)"))
        }
        do {
            try socket.send(job.body)
        } catch {
            if error == .again { return .timedOut }
            return .failed(.unavailable("cannot send to \(job.address): \(error)"))
        }
        var frames: [[UInt8]] = []
        do {
            guard try socket.receiveMultipart(into: &frames) != nil else { return .timedOut }
        } catch {
            return .failed(.unavailable("cannot receive from \(job.address): \(error)"))
        }
        guard frames.count == 1 else {
            return .failed(.malformedReply("expected one body frame, got \(frames.count)"))
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
        guard let envelope = value.objectValue else { return .failure(.malformedReply("the reply is not a JSON object")) }
        guard envelope["v"]?.intValue == 1 else { return .failure(.malformedReply("the reply's v is not 1")) }
        if let id = envelope["id"], !id.isNull, id.stringValue != requestID {
            return .failure(.malformedReply("the reply's id \(id) does not match the request's \(requestID)"))
        }
        switch envelope["ok"]?.boolValue {
        case true?:
            guard let result = envelope["result"]?.objectValue else {
                return .failure(.malformedReply("a success reply without a result object"))
            }
            return .success(result)
        case false?:
            guard let error = envelope["error"]?.objectValue, let code = error["code"]?.stringValue else {
                return .failure(.malformedReply("a failure reply without error.code"))
            }
            return .failure(.service(code: code, message: error["message"]?.stringValue ?? ""))
        case nil:
            return .failure(.malformedReply("the reply has no boolean ok"))
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, ms))
    }

    private static func pause(_ duration: Duration, times factor: Int) {
        let (seconds, attoseconds) = (duration * factor).components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        if micros > 0 { usleep(UInt32(clamping: micros)) }
    }
}

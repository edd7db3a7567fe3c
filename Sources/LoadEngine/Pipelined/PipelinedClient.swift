import BenchmarkSupport
import WireContract
import WireJSON
import ZeroMQ

/// A DEALER on a thread of its own that keeps `slots` requests in flight against one endpoint,
/// as fast as the replies come: every reply is answered at once with the next request on its
/// slot (closed loop). The load of svcbench and storebench.
///
/// A request's id is its slot number, so a reply's slot is read from its first bytes and the
/// reply checked cheaply (``ReplyScan``): `,"ok":true` right after the id from the service, the
/// request's length from an echo. The first reply of a run is also checked in full (the
/// service's must parse as JSON with `ok` true, an echo's must be a request), and any reply that
/// answers none of the slots ends the run. Latency is send → reply on the monotonic clock, one
/// sample per counted reply (see ``PipelinedSchedule``).
///
/// Every run gets a fresh thread and a fresh socket (in `context`, which may serve many runs).
public struct PipelinedClient: Sendable {
    /// What answers, which decides how a reply is checked.
    public enum Server: Sendable, Hashable {
        /// svcd (or anything speaking the contract): a reply is expected when `ok` is true.
        case service
        /// A raw echo: a reply is expected when it has its request's length.
        case echo
    }

    /// The endpoint's address.
    public let endpoint: String
    /// The context the client's socket is made in.
    public let context: ZMQContext
    /// What answers.
    public let server: Server
    /// Requests kept in flight (1: lockstep).
    public let slots: Int
    /// What is sent.
    public let requests: PipelinedRequests
    /// How long, and which replies count.
    public let schedule: PipelinedSchedule
    /// CURVE keys when the endpoint is a CURVE server.
    public var curve: CurveClientKeys?
    /// The run fails when no reply arrives for this long.
    public var replyTimeoutMilliseconds: Int32 = 5000
    /// The client thread's name (at most 15 bytes: Linux refuses a longer one), by which CPU
    /// per thread tells the client from the server.
    public var threadName = "load-client"
    /// What the failure messages call the server, before its address.
    public var label: String
    /// Called on the client thread with the `result` of every `ok` reply (each is then parsed
    /// in full), counted or not; `nil` skips the parsing.
    public var onSuccess: (@Sendable (JSONValue) -> Void)?

    /// A client of `endpoint`; see the properties for the rest.
    public init(
        endpoint: String, context: ZMQContext, server: Server, slots: Int, requests: PipelinedRequests, schedule: PipelinedSchedule
    ) {
        self.endpoint = endpoint
        self.context = context
        self.server = server
        self.slots = slots
        self.requests = requests
        self.schedule = schedule
        self.label = server == .echo ? "echo" : "service"
    }

    /// Runs the schedule on a new thread and returns what happened.
    public func run() async throws(LoadFailure) -> PipelinedOutcome {
        let client = self
        return try await DedicatedThread.run(named: threadName) { () throws(LoadFailure) -> PipelinedOutcome in try client.drive() }
    }

    // MARK: The client thread

    private func drive() throws(LoadFailure) -> PipelinedOutcome {
        let socket: ZMQSocket
        do throws(ZMQError) {
            socket = try context.makeClientSocket(connectingTo: endpoint, curve: curve, receiveTimeoutMilliseconds: replyTimeoutMilliseconds)
        } catch {
            throw failure(.unavailable, "cannot connect: \(error)")
        }
        defer { socket.close() }
        do {
            return try exchange(on: socket)
        } catch let failure as LoadFailure {
            throw failure
        } catch {
            throw failure(.unavailable, "\(error)")
        }
    }

    private func failure(_ kind: LoadFailure.Kind, _ what: String) -> LoadFailure {
        LoadFailure(kind, "\(label) at \(endpoint): \(what)")
    }

    private func exchange(on socket: ZMQSocket) throws -> PipelinedOutcome {
        let scan = ReplyScan()
        let checksSuccess = server == .service
        let empty: [UInt8] = []
        let fixedBodies: [[UInt8]]?
        let paramsOfEach: (@Sendable (Int, Int) -> String)?
        switch requests {
        case .samePerSlot(let params):
            fixedBodies = (0..<slots).map { PipelinedRequests.body(slot: $0, params: params($0)) }
            paramsOfEach = nil
        case .each(let params):
            fixedBodies = nil
            paramsOfEach = params
        }
        var outcome = PipelinedOutcome()
        var sentAt = [UInt64](repeating: 0, count: slots)
        var sentLength = [Int](repeating: 0, count: slots)
        var frames: [[UInt8]] = []
        var sequence = 0

        let start = MonotonicClock.nanoseconds()
        var windowStart = start
        var windowEnd = UInt64.max
        var sendEnd = UInt64.max
        var unsent = Int.max
        var phase: LoadPhase?
        var expectedSeconds = 2.0
        switch schedule {
        case .window(let warmup, let window):
            windowStart = start + warmup
            windowEnd = windowStart + window
            sendEnd = windowEnd
            expectedSeconds = Double(window) / 1e9
        case .requests(let count):
            unsent = count
            expectedSeconds = Double(count) / 600_000
        case .sendFor(let nanoseconds):
            sendEnd = start + nanoseconds
            expectedSeconds = Double(nanoseconds) / 1e9
        case .phased(let stages):
            phase = stages
        }
        // Room for ~600k replies a second, so the window never grows the array.
        outcome.latencies.reserveCapacity(Int(min(expectedSeconds * 600_000, 50_000_000)))

        @discardableResult
        func send(on slot: Int) throws(ZMQError) -> [UInt8] {
            let body = fixedBodies?[slot] ?? PipelinedRequests.body(slot: slot, params: paramsOfEach!(slot, sequence))
            sequence += 1
            sentLength[slot] = body.count
            sentAt[slot] = MonotonicClock.nanoseconds()
            try socket.send(empty, more: true)
            try socket.send(body)
            outcome.sent += 1
            return body
        }

        let initial = min(slots, unsent)
        unsent -= initial
        var initialBodies: [[UInt8]] = []
        for slot in 0..<initial { initialBodies.append(try send(on: slot)) }
        var outstanding = initial
        var checkedFirst = false
        var lastReply = start
        while outstanding > 0 {
            guard try socket.receiveReply(into: &frames) else {
                throw failure(.noAnswer, "no reply within \(replyTimeoutMilliseconds) ms (\(outstanding) requests outstanding)")
            }
            let now = MonotonicClock.nanoseconds()
            lastReply = now
            outstanding -= 1
            guard frames.count == 2, frames[0].isEmpty else {
                throw failure(.serviceError, "expected a reply of [empty, body], got \(frames.count) frames")
            }
            let body = frames[1]
            let found = scan.idNumber(in: body)
            var expected = false
            if let found, found.number < slots {
                expected = checksSuccess ? scan.succeeds(body, after: found.end) : body.count == sentLength[found.number]
            }
            if !checkedFirst {
                try verifyFirst(body, fastCheckPassed: expected, initialBodies: initialBodies)
                checkedFirst = true
            }
            guard let found, found.number < slots else {
                throw failure(.serviceError, "a reply that answers none of the requests: \(Self.text(body, 300))")
            }
            let counts: Bool
            let sendsAgain: Bool
            if let phase {
                let stage = phase.stage
                counts = stage == .measuring
                sendsAgain = stage != .stopping
            } else {
                counts = now >= windowStart && now < windowEnd
                sendsAgain = now < sendEnd && unsent > 0
            }
            if counts {
                outcome.replies += 1
                outcome.latencies.append(now &- sentAt[found.number])
            }
            if !expected {
                if counts { outcome.failures += 1 }
                outcome.errorCodes[errorCode(of: body), default: 0] += 1
            } else if let onSuccess, let result = (try? JSONParser.parse(body))?.replyResult {
                onSuccess(result)
            }
            if sendsAgain {
                unsent -= 1
                try send(on: found.number)
                outstanding += 1
            }
        }
        switch schedule {
        case .window(_, let window): outcome.windowNanoseconds = window
        case .requests, .sendFor: outcome.windowNanoseconds = max(lastReply - start, 1)
        case .phased: outcome.windowNanoseconds = 0
        }
        return outcome
    }

    /// The first reply of a run is checked in full, and the fast check must agree with it.
    private func verifyFirst(_ body: [UInt8], fastCheckPassed: Bool, initialBodies: [[UInt8]]) throws(LoadFailure) {
        let text = Self.text(body, 500)
        switch server {
        case .service:
            let value: JSONValue
            do {
                value = try JSONParser.parse(body)
            } catch {
                throw failure(.serviceError, "the first reply is not JSON (\(error)): \(text)")
            }
            guard value.replySucceeded else { throw failure(.serviceError, "the first reply is not ok: \(text)") }
        case .echo:
            guard initialBodies.contains(body) else { throw failure(.serviceError, "the first reply is not one of the requests: \(text)") }
        }
        guard fastCheckPassed else {
            throw failure(.serviceError, "the first reply passed the full check but not the fast one (unexpected layout): \(text)")
        }
    }

    /// The error code of an unexpected reply.
    private func errorCode(of body: [UInt8]) -> String {
        guard server == .service else { return "mismatch" }
        return (try? JSONParser.parse(body))?.replyErrorCode ?? "unreadable_error"
    }

    private static func text(_ body: [UInt8], _ limit: Int) -> String {
        String(decoding: body.prefix(limit), as: UTF8.self)
    }
}

import BenchmarkSupport
import Foundation
import WireContract
import WireJSON
import ZeroMQ

/// The one client used against both targets: a DEALER on its own dedicated thread (never the
/// cooperative pool) that keeps `inFlight` requests outstanding, answers every reply with the
/// next request on the same slot, and times each request from send to reply.
///
/// Every run gets a fresh thread and a fresh socket, so echo and service runs start alike.
/// Requests are `[empty, body]` with `body = {"v":1,"id":"<slot>","params":{"restaurantId":"r-000042"}}`
/// (byte-identical for both targets; the restaurant id is configurable); the reply's id says
/// which slot it answers. With ``Workload/registerUser(tag:)`` every request instead registers a
/// new user; with ``CurveClientKeys`` the socket is a CURVE client.
struct LoadClient: Sendable {
    /// What each request asks for.
    enum Workload: Sendable, Hashable {
        /// GetRestaurant with the client's `restaurantId`: the same body for a slot every time.
        case getRestaurant
        /// RegisterUser with a new e-mail per request, `<tag>-<9-digit sequence>@bench.example`;
        /// `tag` must differ between runs against the same store, or the e-mails collide.
        case registerUser(tag: String)

        /// The use case.
        var useCase: UseCaseName {
            switch self {
            case .getRestaurant: .getRestaurant
            case .registerUser: .registerUser
            }
        }
    }

    /// The keys a CURVE client needs: the server's public key and its own pair, all Z85.
    struct CurveClientKeys: Sendable, Hashable {
        let serverPublicKey: String
        let client: ZMQCurveKeyPair
    }

    /// The client's own context (its own libzmq I/O thread), shared by every run.
    let context: ZMQContext
    let warmupNanoseconds: UInt64
    let windowNanoseconds: UInt64
    /// The GetRestaurant parameter (the sample data's `r-000042` by default).
    let restaurantId: String
    /// A run fails when no reply arrives for this long.
    let replyTimeoutMilliseconds: Int32 = 5000

    /// The request body of a slot.
    func body(slot: Int) -> [UInt8] {
        WireEnvelope.requestBytes(id: String(slot), paramsJSON: #"{"restaurantId":"\#(restaurantId)"}"#)
    }

    /// The RegisterUser request body of `slot` for the request numbered `sequence`: the same
    /// length for every sequence below 10⁹, so every request costs the client alike.
    static func registrationBody(slot: Int, tag: String, sequence: Int) -> [UInt8] {
        let digits = String(sequence)
        let padded = String(repeating: "0", count: max(0, 9 - digits.count)) + digits
        return WireEnvelope.requestBytes(id: String(slot), paramsJSON: #"{"name":"Bench User","email":"\#(tag)-\#(padded)@bench.example"}"#)
    }

    /// Runs warm-up plus one measurement window against `endpoint` on a new thread; with
    /// `requests`, instead sends exactly that many requests (no warm-up, every reply counts)
    /// and the window is the time they took. `workload` is what the requests ask (the echo
    /// only gets GetRestaurant: its fast check compares lengths); `curve` makes the socket a
    /// CURVE client.
    func run(
        _ target: BenchTarget, endpoint: String, inFlight: Int, round: Int, requests: Int? = nil,
        workload: Workload = .getRestaurant, curve: CurveClientKeys? = nil
    ) async throws -> RunResult {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<RunResult, any Error>) in
            let thread = Thread { [self] in
                // Named from inside: on Linux that is what sets the kernel thread name (perf, top -H).
                Thread.current.name = "svcbench-client"
                done.resume(with: Result {
                    try drive(target, endpoint: endpoint, inFlight: inFlight, round: round, requests: requests, workload: workload, curve: curve)
                })
            }
            thread.start()
        }
    }

    // MARK: The client thread

    /// What the fast check makes of one reply body.
    private enum Verdict {
        /// The expected answer for `slot`.
        case ok(Int)
        /// A reply for `slot` that is not the expected answer (e.g. `"ok":false`).
        case failed(Int)
        /// Not a reply to one of our requests.
        case unreadable

        /// The slot the reply answers, `nil` when unreadable.
        var slot: Int? {
            switch self {
            case .ok(let slot), .failed(let slot): slot
            case .unreadable: nil
            }
        }

        var isFailure: Bool {
            if case .failed = self { return true }
            return false
        }
    }

    private static let idPrefix = WireEnvelope.requestPrefix
    private static let okAfterId = WireEnvelope.successAfterId

    private func drive(
        _ target: BenchTarget, endpoint: String, inFlight: Int, round: Int, requests: Int?,
        workload: Workload, curve: CurveClientKeys?
    ) throws -> RunResult {
        let socket = try context.makeSocket(.dealer)
        defer { socket.close() }
        try socket.setLinger(0)
        try socket.setReceiveTimeout(replyTimeoutMilliseconds)
        if let curve {
            try socket.setCurveClient(serverKey: curve.serverPublicKey, publicKey: curve.client.publicKey, secretKey: curve.client.secretKey)
        }
        try socket.connect(endpoint)

        // GetRestaurant sends `bodies[slot]` every time; RegisterUser builds each body anew (the
        // same length as `bodies[slot]`, which is all the reply check needs of it).
        var registrations = 0
        let registrationTag: String?
        if case .registerUser(let tag) = workload {
            registrationTag = tag
        } else {
            registrationTag = nil
        }
        let bodies = (0..<inFlight).map { slot in
            registrationTag.map { Self.registrationBody(slot: slot, tag: $0, sequence: 0) } ?? body(slot: slot)
        }
        func nextBody(_ slot: Int) -> [UInt8] {
            guard let registrationTag else { return bodies[slot] }
            registrations += 1
            return Self.registrationBody(slot: slot, tag: registrationTag, sequence: registrations)
        }
        let empty: [UInt8] = []
        let idPrefix = Self.idPrefix
        let okAfterId = Self.okAfterId
        var sentAt = [UInt64](repeating: 0, count: inFlight)
        var frames: [[UInt8]] = []
        var latencies: [UInt64] = []
        latencies.reserveCapacity(Int(min(Double(windowNanoseconds) / 1e9 * 600_000, 50_000_000)))
        var errors = 0
        var checkedFirst = false

        let start = MonotonicClock.nanoseconds()
        // A counted run measures from the first request to the last reply.
        let windowStart = requests == nil ? start + warmupNanoseconds : start
        let windowEnd = requests == nil ? windowStart + windowNanoseconds : .max
        let initial = min(inFlight, requests ?? inFlight)
        var unsent = requests.map { $0 - initial } ?? .max

        for slot in 0..<initial {
            let request = nextBody(slot)
            sentAt[slot] = MonotonicClock.nanoseconds()
            try socket.send(empty, more: true)
            try socket.send(request)
        }
        var outstanding = initial
        while outstanding > 0 {
            guard try Self.receiveReply(on: socket, into: &frames) else {
                throw BenchError("\(target) at \(endpoint): no reply within \(replyTimeoutMilliseconds) ms (\(outstanding) requests outstanding)")
            }
            let now = MonotonicClock.nanoseconds()
            outstanding -= 1
            guard frames.count == 2, frames[0].isEmpty else {
                throw BenchError("\(target) at \(endpoint): expected a reply of [empty, body], got \(frames.count) frames")
            }
            let verdict = Self.inspect(frames[1], target: target, bodies: bodies, idPrefix: idPrefix, okAfterId: okAfterId)
            if !checkedFirst {
                try verifyFirst(frames[1], verdict: verdict, target: target, bodies: bodies, useCase: workload.useCase.rawValue)
                checkedFirst = true
            }
            guard let slot = verdict.slot else {
                throw BenchError("\(target) at \(endpoint): a reply that answers none of the requests: \(String(decoding: frames[1].prefix(300), as: UTF8.self))")
            }
            if verdict.isFailure && now >= windowStart && now < windowEnd {
                errors += 1
            }
            if now >= windowStart && now < windowEnd {
                latencies.append(now - sentAt[slot])
            }
            if now < windowEnd && unsent > 0 {
                unsent -= 1
                let request = nextBody(slot)
                sentAt[slot] = MonotonicClock.nanoseconds()
                try socket.send(empty, more: true)
                try socket.send(request)
                outstanding += 1
            }
        }
        let window = requests == nil ? windowNanoseconds : max(MonotonicClock.nanoseconds() - start, 1)
        return RunResult(target: target, inFlight: inFlight, round: round, latencies: &latencies, errors: errors, windowNanoseconds: window)
    }

    /// Blocking receive of the next reply, retried when a signal interrupts it; `false` when the
    /// receive timeout expired.
    ///
    /// A function of its own on purpose: Swift 6.3.1 crashes or hangs in the mandatory SIL pass
    /// MandatoryAllocBoxToStack (StackNesting::fixNesting) when a loop holds
    /// `let x: T?; do throws(E) { x = try … } catch .someCase { continue }`.
    private static func receiveReply(on socket: ZMQSocket, into frames: inout [[UInt8]]) throws(ZMQError) -> Bool {
        while true {
            do throws(ZMQError) {
                return try socket.receiveMultipart(into: &frames) != nil
            } catch .interrupted {
                continue
            }
        }
    }

    /// The first reply of every run is checked in full: the service's must parse as JSON with
    /// `ok == true`, the echo's must be the request itself; and the fast check must agree.
    private func verifyFirst(_ body: [UInt8], verdict: Verdict, target: BenchTarget, bodies: [[UInt8]], useCase: String) throws {
        let text = String(decoding: body.prefix(500), as: UTF8.self)
        switch target {
        case .service:
            let value: JSONValue
            do {
                value = try JSONParser.parse(body)
            } catch {
                throw BenchError("the first \(useCase) reply is not JSON (\(error)): \(text)")
            }
            guard value.replySucceeded else {
                throw BenchError("the first \(useCase) reply is not ok: \(text)")
            }
        case .echo:
            guard bodies.contains(body) else {
                throw BenchError("the echo's first reply is not one of the requests: \(text)")
            }
        }
        guard case .ok = verdict else {
            throw BenchError("the first \(target) reply passed the full check but not the fast one (unexpected layout): \(text)")
        }
    }

    /// Reads the slot from the id right after `{"v":1,"id":"` and checks the rest cheaply: for the
    /// service `,"ok":true` must follow the id; for the echo the body must have the request's length.
    @inline(__always)
    private static func inspect(_ body: [UInt8], target: BenchTarget, bodies: [[UInt8]], idPrefix: [UInt8], okAfterId: [UInt8]) -> Verdict {
        let count = body.count
        guard count > idPrefix.count + 1 else { return .unreadable }
        for index in idPrefix.indices where body[index] != idPrefix[index] {
            return .unreadable
        }
        var position = idPrefix.count
        var slot = 0
        var digits = 0
        while position < count, body[position] >= UInt8(ascii: "0"), body[position] <= UInt8(ascii: "9"), digits < 9 {
            slot = slot * 10 + Int(body[position] &- UInt8(ascii: "0"))
            position += 1
            digits += 1
        }
        guard digits > 0, position < count, body[position] == UInt8(ascii: "\""), slot < bodies.count else {
            return .unreadable
        }
        position += 1
        switch target {
        case .echo:
            return count == bodies[slot].count ? .ok(slot) : .failed(slot)
        case .service:
            guard count - position >= okAfterId.count else { return .failed(slot) }
            for index in okAfterId.indices where body[position + index] != okAfterId[index] {
                return .failed(slot)
            }
            return .ok(slot)
        }
    }
}

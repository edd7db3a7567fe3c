import Foundation
import WireJSON
import ZeroMQ

/// A DEALER client on its own thread that keeps `inFlight` requests outstanding against one
/// endpoint for `seconds`, then waits for the stragglers, timing each request from send to reply.
struct PipelinedWriter: Sendable {
    let address: String
    let inFlight: Int
    let seconds: Double
    /// The `params` JSON text of request number `sequence` (0, 1, 2, …).
    let params: @Sendable (Int) -> String
    /// Called with the `result` of every `ok` reply (on the client thread).
    let onResult: @Sendable (JSONValue) -> Void

    /// What one run did.
    struct Outcome: Sendable {
        var sent = 0
        var ok = 0
        var errors: [String: Int] = [:]
        var elapsedSeconds = 0.0
        var latenciesMicros: [Double] = []
        var perSecond: Double { elapsedSeconds > 0 ? Double(ok) / elapsedSeconds : 0 }
    }

    func run() async throws -> Outcome {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Outcome, any Error>) in
            let thread = Thread { done.resume(with: Result { try drive() }) }
            thread.name = "storebench-client"
            thread.start()
        }
    }

    private func drive() throws -> Outcome {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.dealer)
        defer { socket.close() }
        try socket.setLinger(0)
        try socket.setReceiveTimeout(10_000)
        try socket.connect(address)

        var outcome = Outcome()
        outcome.latenciesMicros.reserveCapacity(1 << 20)
        var sentAt: [Int: UInt64] = [:]
        var frames: [[UInt8]] = []
        let start = monotonicNanoseconds()
        let stopSending = start + UInt64(seconds * 1e9)
        var lastReply = start
        var sequence = 0
        func send() throws {
            let body = #"{"v":1,"id":"\#(sequence)","params":\#(params(sequence))}"#
            sentAt[sequence] = monotonicNanoseconds()
            try socket.sendMultipart([[], Array(body.utf8)])
            sequence += 1
            outcome.sent += 1
        }
        for _ in 0..<inFlight { try send() }
        while !sentAt.isEmpty {
            guard try socket.receiveMultipart(into: &frames) != nil, let body = frames.last else {
                throw BenchFailure("no reply from \(address) for 10 s (\(sentAt.count) outstanding)")
            }
            let now = monotonicNanoseconds()
            lastReply = now
            let reply = try JSONParser.parse(body)
            guard let id = reply["id"]?.stringValue.flatMap(Int.init), let sent = sentAt.removeValue(forKey: id) else {
                throw BenchFailure("unexpected reply: \(String(decoding: body, as: UTF8.self))")
            }
            outcome.latenciesMicros.append(Double(now - sent) / 1000)
            if reply["ok"]?.boolValue == true, let result = reply["result"] {
                outcome.ok += 1
                onResult(result)
            } else {
                outcome.errors[reply["error"]?["code"]?.stringValue ?? "?", default: 0] += 1
            }
            if now < stopSending { try send() }
        }
        outcome.elapsedSeconds = Double(lastReply - start) / 1e9
        return outcome
    }
}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The benchmark itself failed (not a slow result).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Nearest-rank percentile of unsorted samples.
func percentile(_ samples: [Double], _ p: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let sorted = samples.sorted()
    let rank = max(0, min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
    return sorted[rank]
}

/// A median.
func median(_ values: [Double]) -> Double {
    percentile(values, 50)
}

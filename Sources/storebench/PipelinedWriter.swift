import BenchmarkSupport
import Foundation
import WireContract
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
        /// This process's threads right after the last reply, before the client's own threads
        /// (``clientThreads``) end.
        var threadsAtEnd = ThreadCPU.snapshot()
        /// The client's thread and its libzmq I/O thread, to tell the service's CPU from it.
        var clientThreads: Set<Int> = []
        var perSecond: Double { elapsedSeconds > 0 ? Double(ok) / elapsedSeconds : 0 }

        /// CPU nanoseconds that this process's threads other than the client's spent from
        /// `start` to the last reply (the service's, in storebench), by kind of thread, largest
        /// first. Dispatch's worker threads rename themselves after the queue they serve at the
        /// moment (Swift's global executor, GRDB's writer and readers), so they are one kind.
        func serviceCPU(since start: ThreadCPU) -> [(name: String, nanoseconds: UInt64)] {
            var byName: [String: UInt64] = [:]
            for (tid, now) in threadsAtEnd.threads where !clientThreads.contains(tid) {
                let kind = now.name.contains("qos") ? "dispatch workers" : now.name.hasPrefix("zmq-") ? "socket thread"
                    : now.name.hasPrefix("ZMQbg/IO") ? "libzmq I/O" : now.name
                byName[kind, default: 0] += now.nanoseconds - min(start.threads[tid]?.nanoseconds ?? 0, now.nanoseconds)
            }
            return byName.map { (name: $0.key, nanoseconds: $0.value) }.sorted { $0.nanoseconds > $1.nanoseconds }
        }
    }

    /// The client thread's name (at most 15 bytes: Linux refuses a longer one).
    static let threadName = "storebench-load"

    func run() async throws -> Outcome {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Outcome, any Error>) in
            Thread {
                // Named from inside: on Linux only that sets the kernel's name, which
                // `ThreadCPU` reads to tell the client from the service.
                Thread.current.name = Self.threadName
                done.resume(with: Result { try drive() })
            }.start()
        }
    }

    private func drive() throws -> Outcome {
        let threadsBefore = ThreadCPU.snapshot()
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
        let start = MonotonicClock.nanoseconds()
        let stopSending = start + UInt64(seconds * 1e9)
        var lastReply = start
        var sequence = 0
        func send() throws {
            let body = WireEnvelope.requestBytes(id: String(sequence), paramsJSON: params(sequence))
            sentAt[sequence] = MonotonicClock.nanoseconds()
            try socket.sendMultipart([[], body])
            sequence += 1
            outcome.sent += 1
        }
        for _ in 0..<inFlight { try send() }
        while !sentAt.isEmpty {
            guard try socket.receiveMultipart(into: &frames) != nil, let body = frames.last else {
                throw BenchFailure("no reply from \(address) for 10 s (\(sentAt.count) outstanding)")
            }
            let now = MonotonicClock.nanoseconds()
            lastReply = now
            let reply = try JSONParser.parse(body)
            guard let id = reply[WireEnvelope.Key.id]?.stringValue.flatMap(Int.init), let sent = sentAt.removeValue(forKey: id) else {
                throw BenchFailure("unexpected reply: \(String(decoding: body, as: UTF8.self))")
            }
            outcome.latenciesMicros.append(Double(now - sent) / 1000)
            if reply.replySucceeded, let result = reply.replyResult {
                outcome.ok += 1
                onResult(result)
            } else {
                outcome.errors[reply.replyErrorCode ?? "?", default: 0] += 1
            }
            if now < stopSending { try send() }
        }
        outcome.elapsedSeconds = Double(lastReply - start) / 1e9
        outcome.threadsAtEnd = ThreadCPU.snapshot()
        // This thread, and the I/O thread its context started (the only new libzmq thread).
        outcome.clientThreads = Set(outcome.threadsAtEnd.threads.filter { tid, thread in
            thread.name == Self.threadName || (thread.name.hasPrefix("ZMQbg/") && threadsBefore.threads[tid] == nil)
        }.keys)
        return outcome
    }
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

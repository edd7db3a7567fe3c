import BenchmarkSupport
import Foundation
import LoadEngine
import WireJSON
import ZeroMQ

/// LoadEngine's pipelined client against one endpoint: `inFlight` requests kept outstanding
/// for `seconds`, then the stragglers awaited; every reply counts and is timed from send to
/// reply, and every `ok` reply's `result` goes to `onResult`.
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
        /// This process's threads right after the run, before the client's libzmq I/O thread
        /// (among ``clientThreads``) ends.
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
        let threadsBefore = ThreadCPU.snapshot()
        // The client's own context: its libzmq I/O thread is new, which tells it from the service's.
        let context = try ZMQContext()
        defer { context.terminate() }
        let params = params
        var client = PipelinedClient(
            endpoint: address, context: context, server: .service, slots: inFlight, requests: .each { _, sequence in params(sequence) },
            schedule: .sendFor(nanoseconds: UInt64(seconds * 1e9)))
        client.replyTimeoutMilliseconds = 10_000
        client.threadName = Self.threadName
        client.onSuccess = onResult
        let run = try await client.run()
        var outcome = Outcome()
        // Before the context ends its I/O thread; the client thread has ended, so it is not among them.
        outcome.threadsAtEnd = ThreadCPU.snapshot()
        outcome.sent = run.sent
        outcome.ok = run.succeeded
        outcome.errors = run.errorCodes
        outcome.elapsedSeconds = Double(run.windowNanoseconds) / 1e9
        outcome.latenciesMicros = run.latencies.map { Double($0) / 1000 }
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

import Foundation
import LoadEngine
import ZeroMQ

/// Pipelined requests spread over several svcd instances: LoadEngine's pipelined client once per
/// instance, each with its own context on its own thread, together keeping `inFlight` requests
/// outstanding (instance i gets an equal share, the first ones one more when it does not
/// divide). Every reply is answered with the next request on the same slot. After a warm-up the
/// measured window opens: replies arriving in it are counted and timed, and the CPU counters are
/// read as it opens and closes.
struct SpreadLoad: Sendable {
    /// One address per instance (the same use case on each).
    let addresses: [String]
    let inFlight: Int
    /// The `params` JSON text of a request: instance index, slot within it (0…share-1), global
    /// slot (0…inFlight-1) and the instance's request sequence number (0, 1, 2, …).
    let params: @Sendable (_ instance: Int, _ slot: Int, _ globalSlot: Int, _ sequence: Int) -> String

    /// What a run did, counted over the measured window.
    struct Outcome {
        /// `ok` replies that arrived in the window.
        var ok = 0
        /// Replies that were not `ok`, by error code, over the whole run.
        var errors: [String: Int] = [:]
        /// Send → reply of the window's replies, µs.
        var latenciesMicros: [Double] = []
        /// The CPU spent in the window.
        var usage: CPUUsage
        /// `ok` replies per second of the window.
        var perSecond: Double { usage.wallSeconds > 0 ? Double(ok) / usage.wallSeconds : 0 }
    }

    /// Runs `warmup`, then the measured window of `seconds`, then waits for the stragglers.
    /// `snapshot` reads the CPU counters (at the window's start and end).
    func run(warmup: Duration, seconds: Duration, snapshot: @escaping @Sendable () -> CPUSnapshot) async throws -> Outcome {
        let phase = LoadPhase()
        let shares = addresses.indices.map { inFlight / addresses.count + ($0 < inFlight % addresses.count ? 1 : 0) }
        let firstSlots = shares.indices.map { shares[..<$0].reduce(0, +) }
        var contexts: [ZMQContext] = []
        defer { for context in contexts { context.terminate() } }
        for _ in addresses { contexts.append(try ZMQContext()) }
        let params = params
        return try await withThrowingTaskGroup(of: PipelinedOutcome.self) { group in
            for (instance, address) in addresses.enumerated() {
                let firstSlot = firstSlots[instance]
                var client = PipelinedClient(
                    endpoint: address, context: contexts[instance], server: .service, slots: shares[instance],
                    requests: .each { slot, sequence in params(instance, slot, firstSlot + slot, sequence) }, schedule: .phased(phase))
                client.replyTimeoutMilliseconds = 10_000
                client.threadName = "cluster-client\(instance)"
                client.label = "svcd \(instance)"
                group.addTask { try await client.run() }
            }
            let before: CPUSnapshot, after: CPUSnapshot
            do {
                try await Task.sleep(for: warmup)
                phase.enter(.measuring)
                before = snapshot()
                try await Task.sleep(for: seconds)
                phase.enter(.stopping)
                after = snapshot()
            } catch {
                phase.enter(.stopping)
                throw error
            }
            var outcome = Outcome(usage: after.since(before))
            for try await result in group {
                outcome.ok += result.succeeded
                outcome.errors.merge(result.errorCodes, uniquingKeysWith: +)
                outcome.latenciesMicros += result.latencies.map { Double($0) / 1000 }
            }
            return outcome
        }
    }
}

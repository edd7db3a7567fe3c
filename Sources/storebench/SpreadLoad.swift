import BenchmarkSupport
import Foundation
import Synchronization
import WireContract
import WireJSON
import ZeroMQ

/// Pipelined requests spread over several svcd instances: one DEALER per instance, each on its
/// own thread, together keeping `inFlight` requests outstanding (instance i gets an equal share,
/// the first ones one more when it does not divide). Every reply is answered with the next
/// request on the same slot. After a warm-up the measured window opens: replies arriving in it
/// are counted and timed, and the CPU counters are read as it opens and closes.
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

    /// What one client thread did.
    private struct ClientResult: Sendable {
        var ok = 0
        var errors: [String: Int] = [:]
        var latenciesMicros: [Double] = []
    }

    /// Runs `warmup`, then the measured window of `seconds`, then waits for the stragglers.
    /// `snapshot` reads the CPU counters (at the window's start and end).
    func run(warmup: Duration, seconds: Duration, snapshot: @escaping @Sendable () -> CPUSnapshot) async throws -> Outcome {
        let phase = Phase()
        let shares = addresses.indices.map { inFlight / addresses.count + ($0 < inFlight % addresses.count ? 1 : 0) }
        let firstSlots = shares.indices.map { shares[..<$0].reduce(0, +) }
        return try await withThrowingTaskGroup(of: ClientResult.self) { group in
            for (instance, address) in addresses.enumerated() {
                let share = shares[instance], firstSlot = firstSlots[instance]
                group.addTask {
                    try await onThread {
                        try drive(instance: instance, address: address, share: share, firstSlot: firstSlot, phase: phase)
                    }
                }
            }
            let before: CPUSnapshot, after: CPUSnapshot
            do {
                try await Task.sleep(for: warmup)
                phase.value.store(Phase.measuring, ordering: .sequentiallyConsistent)
                before = snapshot()
                try await Task.sleep(for: seconds)
                phase.value.store(Phase.stopping, ordering: .sequentiallyConsistent)
                after = snapshot()
            } catch {
                phase.value.store(Phase.stopping, ordering: .sequentiallyConsistent)
                throw error
            }
            var outcome = Outcome(usage: after.since(before))
            for try await result in group {
                outcome.ok += result.ok
                outcome.errors.merge(result.errors, uniquingKeysWith: +)
                outcome.latenciesMicros += result.latenciesMicros
            }
            return outcome
        }
    }

    /// Where the run is, shared by the timing task and the client threads.
    private final class Phase: Sendable {
        static let warmingUp = 0, measuring = 1, stopping = 2
        let value = Atomic<Int>(Phase.warmingUp)
    }


    /// One client thread: a DEALER to `address` with `share` slots outstanding until the
    /// window closes, then the stragglers.
    private func drive(instance: Int, address: String, share: Int, firstSlot: Int, phase: Phase) throws -> ClientResult {
        Thread.current.name = "cluster-client\(instance)"
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.dealer)
        defer { socket.close() }
        try socket.setLinger(0)
        try socket.setReceiveTimeout(10_000)
        try socket.connect(address)

        var result = ClientResult()
        result.latenciesMicros.reserveCapacity(1 << 18)
        var sentAt = [UInt64](repeating: 0, count: share)
        var sequence = 0
        var outstanding = 0
        var frames: [[UInt8]] = []
        var checkedFirst = false
        func send(_ slot: Int) throws {
            let body = WireEnvelope.requestBytes(id: String(slot), paramsJSON: params(instance, slot, firstSlot + slot, sequence))
            sentAt[slot] = MonotonicClock.nanoseconds()
            try socket.sendMultipart([[], body])
            sequence += 1
            outstanding += 1
        }
        for slot in 0..<share { try send(slot) }
        while outstanding > 0 {
            guard try socket.receiveMultipart(into: &frames) != nil, let body = frames.last else {
                throw BenchFailure("no reply from \(address) for 10 s (\(outstanding) outstanding)")
            }
            let now = MonotonicClock.nanoseconds()
            outstanding -= 1
            guard let (slot, ok) = Self.inspect(body), slot < share else {
                throw BenchFailure("unexpected reply from \(address): \(String(decoding: body, as: UTF8.self))")
            }
            if !checkedFirst {
                // The first reply in full: it must be ok, and the fast check must agree.
                let reply = try JSONParser.parse(body)
                guard reply.replySucceeded, ok else {
                    throw BenchFailure("the first reply from \(address) is not ok: \(String(decoding: body, as: UTF8.self))")
                }
                checkedFirst = true
            }
            let currentPhase = phase.value.load(ordering: .relaxed)
            if ok {
                if currentPhase == Phase.measuring {
                    result.ok += 1
                    result.latenciesMicros.append(Double(now - sentAt[slot]) / 1000)
                }
            } else {
                let code = (try? JSONParser.parse(body))?.replyErrorCode ?? "?"
                result.errors[code, default: 0] += 1
            }
            if currentPhase != Phase.stopping { try send(slot) }
        }
        return result
    }

    /// The slot from the id right after `{"v":1,"id":"`, and whether `","ok":true` follows it.
    private static func inspect(_ body: [UInt8]) -> (slot: Int, ok: Bool)? {
        let idPrefix = WireEnvelope.requestPrefix
        guard body.count > idPrefix.count + 1, body.starts(with: idPrefix) else { return nil }
        var position = idPrefix.count
        var slot = 0
        while position < body.count, body[position] >= UInt8(ascii: "0"), body[position] <= UInt8(ascii: "9") {
            slot = slot * 10 + Int(body[position] - UInt8(ascii: "0"))
            position += 1
        }
        guard position > idPrefix.count, position < body.count, body[position] == UInt8(ascii: "\"") else { return nil }
        return (slot, body[(position + 1)...].starts(with: WireEnvelope.successAfterId))
    }
}

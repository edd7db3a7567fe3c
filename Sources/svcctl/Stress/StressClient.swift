import Histogram
import WireJSON
import ZeroMQ

/// Per-use-case results of a stress run.
struct StressUseCaseStats: Sendable {
    /// Requests sent.
    var sent = 0
    /// `ok: true` replies.
    var ok = 0
    /// Error replies by code, plus `timeout` for requests never answered.
    var errors: [String: Int] = [:]
    /// Latency from the intended send time, in microseconds (filled in from ``StressProgress``).
    var latency = makeLatencyHistogram()

    /// Adds `other`'s counts (latencies are kept centrally, see ``StressProgress``).
    mutating func merge(_ other: StressUseCaseStats) {
        sent += other.sent
        ok += other.ok
        errors.merge(other.errors, uniquingKeysWith: +)
    }
}

/// Everything one client brings back.
struct StressClientOutcome: Sendable {
    var ledger = StressLedger()
    var useCases: [String: StressUseCaseStats] = [:]
    /// Replies that came after their request had timed out.
    var late = 0
    /// Why the client stopped early, if it did.
    var failure: String?
}

/// What a client thread needs: where to send, what, how fast and for how long.
struct StressClientPlan: Sendable {
    let index: Int
    let context: ZMQContext
    let addresses: [String: String]
    let fixture: StressFixture
    let mix: StressMix
    let seed: UInt64
    /// The schedule's origin and end on the monotonic clock.
    let startNanoseconds: UInt64
    let endNanoseconds: UInt64
    /// Nanoseconds between this client's intended sends, and its first send's offset.
    let intervalNanoseconds: Double
    let phaseNanoseconds: Double
    let maxOutstanding: Int
    let timeoutNanoseconds: UInt64
}

/// One simulated client: its own thread, its own DEALER per use case, sending open-loop on a
/// fixed schedule. Latency counts from the *intended* send time, so a stalled service cannot
/// hide its stall by slowing the client down (no coordinated omission).
struct StressClient {
    private let plan: StressClientPlan
    private let progress: StressProgress

    init(plan: StressClientPlan, progress: StressProgress) {
        self.plan = plan
        self.progress = progress
    }

    private struct Pending {
        let request: StressRequest
        let intended: UInt64
        let sent: UInt64
    }

    /// Runs the schedule to its end, waits up to the timeout for the last replies, and returns
    /// what happened. Call on a dedicated thread: it blocks in `zmq_poll`.
    func run() -> StressClientOutcome {
        var outcome = StressClientOutcome()
        let useCases = StressWorkload.useCases(for: plan.mix)
        var sockets: [String: ZMQSocket] = [:]
        var socketOrder: [ZMQSocket] = []
        defer { for socket in socketOrder { socket.close() } }
        do throws(ZMQError) {
            for useCase in useCases {
                guard let address = plan.addresses[useCase] else { continue }
                let socket = try plan.context.makeSocket(.dealer)
                socketOrder.append(socket)
                try socket.setLinger(0)
                try socket.setSendHighWaterMark(Int32(clamping: plan.maxOutstanding * 2))
                try socket.connect(address)
                sockets[useCase] = socket
            }
        } catch {
            outcome.failure = "client \(plan.index): cannot set up its sockets: \(error)"
            return outcome
        }
        let poller = ZMQPoller()
        for socket in socketOrder { _ = poller.add(socket) }

        var workload = StressWorkload(fixture: plan.fixture, mix: plan.mix, seed: plan.seed, clientIndex: plan.index)
        var pending: [UInt64: Pending] = [:]
        var expired: [UInt64: Pending] = [:]
        var sequence: UInt64 = 0
        var scheduled = 0
        var lastDelayedSlot = -1
        var frames: [[UInt8]] = []
        var delta = StressTally()
        // Latencies since the last report; the histograms live in `progress`, once for all
        // clients, so memory does not grow with the number of clients.
        var samples: [LatencySample] = []
        var lastPublish = monotonicNanoseconds()
        var lastExpiryScan = lastPublish
        let idPrefix = "c\(plan.index)-"
        let drainEnd = plan.endNanoseconds + plan.timeoutNanoseconds

        func intendedTime(_ slot: Int) -> UInt64 {
            plan.startNanoseconds + UInt64(plan.phaseNanoseconds + Double(slot) * plan.intervalNanoseconds)
        }

        func handle(_ body: [UInt8], at now: UInt64) {
            guard let reply = try? JSONParser.parse(body), let id = reply["id"]?.stringValue, id.hasPrefix(idPrefix),
                let number = UInt64(id.dropFirst(idPrefix.count))
            else {
                outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a reply that answers none of the requests: \(String(decoding: body.prefix(200), as: UTF8.self))"))
                return
            }
            let entry: Pending
            if let live = pending.removeValue(forKey: number) {
                entry = live
            } else if let late = expired.removeValue(forKey: number) {
                entry = late
                outcome.late += 1
                delta.timedOut -= 1
            } else {
                outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a second reply to request \(id)"))
                return
            }
            delta.answered += 1
            samples.append(LatencySample(useCase: entry.request.useCase, micros: max(1, (now &- entry.intended) / 1000)))
            if reply["ok"]?.boolValue == true {
                delta.ok += 1
                outcome.useCases[entry.request.useCase, default: StressUseCaseStats()].ok += 1
                entry.request.recordSuccess(reply["result"] ?? .null, in: &outcome.ledger)
                return
            }
            let code = reply["error"]?["code"]?.stringValue ?? "unreadable_error"
            outcome.useCases[entry.request.useCase, default: StressUseCaseStats()].errors[code, default: 0] += 1
            if code == entry.request.expectedRefusal {
                delta.refused += 1
                entry.request.recordRefusal(in: &outcome.ledger)
            } else if BatchCaller.transientCodes.contains(code) {
                delta.transient += 1
            } else {
                delta.unexpected += 1
                entry.request.recordUnknown(in: &outcome.ledger)
            }
        }

        while true {
            var now = monotonicNanoseconds()
            // Send everything that is due, unless too much is already waiting.
            while now < plan.endNanoseconds {
                let intended = intendedTime(scheduled)
                if intended > now || intended >= plan.endNanoseconds { break }
                if pending.count >= plan.maxOutstanding {
                    // Wait for a reply; the send keeps its intended time, so the wait shows up
                    // in its latency.
                    if lastDelayedSlot != scheduled {
                        delta.behind += 1
                        lastDelayedSlot = scheduled
                    }
                    break
                }
                let request = workload.next()
                scheduled += 1
                sequence += 1
                guard let socket = sockets[request.useCase] else { continue }
                let envelope: JSONValue = ["v": 1, "id": .string(idPrefix + String(sequence)), "params": .object(request.params)]
                do throws(ZMQError) {
                    try socket.sendMultipart([[], envelope.encoded()], dontWait: true)
                } catch {
                    // The socket's queue is full (requests that timed out while the service was
                    // gone may still sit in it): never sent, so it has no effect; counted.
                    delta.unsent += 1
                    continue
                }
                now = monotonicNanoseconds()
                pending[sequence] = Pending(request: request, intended: intended, sent: now)
                delta.sent += 1
                outcome.useCases[request.useCase, default: StressUseCaseStats()].sent += 1
            }

            // Requests unanswered for the timeout are given up on (a late reply still counts).
            if now - lastExpiryScan >= 50_000_000 || now >= drainEnd {
                lastExpiryScan = now
                for (number, entry) in pending where now - entry.sent >= plan.timeoutNanoseconds || now >= drainEnd {
                    pending.removeValue(forKey: number)
                    expired[number] = entry
                    delta.timedOut += 1
                }
            }
            if now - lastPublish >= 250_000_000 {
                progress.publish(client: plan.index, delta: delta, inFlight: pending.count, samples: samples)
                delta = StressTally()
                samples.removeAll(keepingCapacity: true)
                lastPublish = now
            }
            if now >= plan.endNanoseconds && (pending.isEmpty || now >= drainEnd) { break }

            var waitMilliseconds = 50
            if now < plan.endNanoseconds, pending.count < plan.maxOutstanding {
                let next = intendedTime(scheduled)
                waitMilliseconds = next <= now ? 0 : min(50, Int((next - now) / 1_000_000))
            }
            do throws(ZMQError) {
                _ = try poller.poll(timeoutMilliseconds: waitMilliseconds)
                let received = monotonicNanoseconds()
                for socket in socketOrder {
                    while try socket.receiveMultipart(into: &frames, dontWait: true) != nil {
                        guard frames.count == 2, frames[0].isEmpty else {
                            outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a reply of \(frames.count) frames instead of [empty, body]"))
                            continue
                        }
                        handle(frames[1], at: received)
                    }
                }
            } catch {
                if error == .interrupted { continue }
                outcome.failure = "client \(plan.index): \(error)"
                break
            }
        }

        // Whatever never got an answer: its effect is unknown.
        for entry in expired.values {
            entry.request.recordUnknown(in: &outcome.ledger)
            outcome.useCases[entry.request.useCase, default: StressUseCaseStats()].errors["timeout", default: 0] += 1
        }
        progress.publish(client: plan.index, delta: delta, inFlight: 0, samples: samples)
        return outcome
    }
}

import BenchmarkSupport
import WireContract
import WireJSON
import ZeroMQ

/// One simulated client: its own thread, its own DEALER per use case, sending open-loop on a
/// fixed schedule. Latency counts from the *intended* send time, so a stalled service cannot
/// hide its stall by slowing the client down (no coordinated omission).
///
/// Client *i* sends to instance *i* mod *n*. When that instance stops answering — a request
/// unanswered for the timeout, the connection lost, or an `unavailable` reply — the client moves
/// to the next live instance; what it sent before stays pending there until answered or timed
/// out. Every write carries a unique idempotency key.
struct StressClient {
    private let plan: StressClientPlan
    private let progress: StressProgress

    init(plan: StressClientPlan, progress: StressProgress) {
        self.plan = plan
        self.progress = progress
    }

    private struct Pending {
        let request: StressRequest
        let key: String?
        let instance: Int
        let intended: UInt64
        let sent: UInt64
    }

    /// Runs the schedule to its end, waits up to the timeout for the last replies, and returns
    /// what happened. Call on a dedicated thread: it blocks in `zmq_poll`.
    func run() -> StressClientOutcome {
        let cluster = plan.cluster
        var outcome = StressClientOutcome(instanceCount: cluster.instances.count)
        let useCases = StressWorkload.useCases(for: plan.mix)
        var connections: [Int: InstanceSockets] = [:]
        defer { for connection in connections.values { connection.close() } }
        let poller = ZMQPoller()
        // The sockets in the poller's order, to read only those it reports readable.
        var polled: [ZMQSocket] = []
        var pollerIsStale = true
        var delta = StressTally()

        var current = plan.index % cluster.instances.count
        if cluster.isDown(current), let next = cluster.nextLive(after: current) {
            // Its instance was not running at the start.
            outcome.instances[current].failovers += 1
            delta.failovers += 1
            current = next
        }

        func connection(to instance: Int) throws(ZMQError) -> InstanceSockets {
            if let open = connections[instance] { return open }
            let opened = try InstanceSockets(
                instance: instance, context: plan.context, addresses: plan.addresses[instance] ?? [:], credentials: cluster.instances[instance].credentials,
                useCases: useCases,
                sendHighWaterMark: Int32(clamping: plan.maxOutstanding * 2),
                monitorEndpoint: cluster.canFailOver ? "inproc://stress-client-\(plan.index)-instance-\(instance)" : nil)
            connections[instance] = opened
            pollerIsStale = true
            return opened
        }

        do throws(ZMQError) {
            _ = try connection(to: current)
        } catch {
            outcome.failure = "client \(plan.index): cannot set up its sockets: \(error)"
            return outcome
        }

        var workload = StressWorkload(fixture: plan.fixture, mix: plan.mix, seed: plan.seed, clientIndex: plan.index)
        var pending: [UInt64: Pending] = [:]
        var pendingPerInstance = [Int](repeating: 0, count: cluster.instances.count)
        var expired: [UInt64: Pending] = [:]
        var sequence: UInt64 = 0
        var scheduled = 0
        var lastDelayedSlot = -1
        var frames: [[UInt8]] = []
        // Latencies since the last report; the histograms live in `progress`, once for all
        // clients, so memory does not grow with the number of clients.
        var samples: [LatencySample] = []
        var lastPublish = MonotonicClock.nanoseconds()
        var lastExpiryScan = lastPublish
        let idPrefix = "c\(plan.index)-"
        let keyPrefix = "\(plan.keyPrefix)-c\(plan.index)-"
        let drainEnd = plan.endNanoseconds + plan.timeoutNanoseconds
        let timeoutText = Wording.seconds(Double(plan.timeoutNanoseconds) / 1e9)

        func intendedTime(_ slot: Int) -> UInt64 {
            plan.startNanoseconds + UInt64(plan.phaseNanoseconds + Double(slot) * plan.intervalNanoseconds)
        }

        /// Counts in the run's totals and in the instance's.
        func count(_ instance: Int, _ change: (inout StressTally) -> Void) {
            change(&delta)
            change(&outcome.instances[instance])
        }

        /// Leaves the current instance for the next live one (staying when there is none).
        func moveAway(because reason: String) {
            guard cluster.canFailOver else { return }
            cluster.markDown(current, reason: reason)
            guard let next = cluster.nextLive(after: current) else { return }
            count(current) { $0.failovers += 1 }
            current = next
        }

        func settle(_ number: UInt64) -> Pending? {
            guard let entry = pending.removeValue(forKey: number) else { return nil }
            pendingPerInstance[entry.instance] -= 1
            return entry
        }

        func handle(_ body: [UInt8], at now: UInt64) {
            guard let reply = try? JSONParser.parse(body), let id = reply[WireEnvelope.Key.id]?.stringValue, id.hasPrefix(idPrefix),
                let number = UInt64(id.dropFirst(idPrefix.count))
            else {
                outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a reply that answers none of the requests: \(String(decoding: body.prefix(200), as: UTF8.self))"))
                return
            }
            let entry: Pending
            if let live = settle(number) {
                entry = live
            } else if let late = expired.removeValue(forKey: number) {
                entry = late
                outcome.late += 1
                count(entry.instance) { $0.timedOut -= 1 }
            } else {
                outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a second reply to request \(id)"))
                return
            }
            count(entry.instance) { $0.answered += 1 }
            samples.append(LatencySample(useCase: entry.request.useCase, micros: max(1, (now &- entry.intended) / 1000)))
            if reply.replySucceeded {
                count(entry.instance) { $0.ok += 1 }
                outcome.useCases[entry.request.useCase, default: StressUseCaseStats()].ok += 1
                entry.request.recordSuccess(reply.replyResult ?? .null, in: &outcome.ledger)
                return
            }
            let code = reply.replyErrorCode ?? "unreadable_error"
            outcome.useCases[entry.request.useCase, default: StressUseCaseStats()].errors[code, default: 0] += 1
            if code == entry.request.expectedRefusal?.rawValue {
                count(entry.instance) { $0.refused += 1 }
                entry.request.recordRefusal(in: &outcome.ledger)
            } else if BatchCaller.isTransient(code) {
                count(entry.instance) { $0.transient += 1 }
                // Draining or shutting down: it had no effect, and the instance is going away.
                if code == WireErrorCode.unavailable.rawValue, entry.instance == current { moveAway(because: "answered unavailable") }
            } else {
                count(entry.instance) { $0.unexpected += 1 }
                if let key = entry.key { outcome.unknownWrites.append(StressUnknownWrite(request: entry.request, key: key, instance: entry.instance)) }
            }
        }

        while true {
            var now = MonotonicClock.nanoseconds()
            if connections[current]?.connectionLost() == true { moveAway(because: "connection lost") }
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
                let sockets: InstanceSockets
                do throws(ZMQError) {
                    sockets = try connection(to: current)
                } catch {
                    outcome.failure = "client \(plan.index): cannot connect to instance \(cluster.instances[current].name): \(error)"
                    break
                }
                guard let socket = sockets.byUseCase[request.useCase] else { continue }
                let key = request.isWrite ? keyPrefix + String(sequence) : nil
                let envelope = WireEnvelope.request(id: idPrefix + String(sequence), params: request.params, idempotencyKey: key)
                do throws(ZMQError) {
                    try socket.sendMultipart([[], envelope.encoded()], dontWait: true)
                } catch {
                    // The socket's queue is full (requests that timed out while the service was
                    // gone may still sit in it): never sent, so it has no effect; counted.
                    count(current) { $0.unsent += 1 }
                    continue
                }
                now = MonotonicClock.nanoseconds()
                pending[sequence] = Pending(request: request, key: key, instance: current, intended: intended, sent: now)
                pendingPerInstance[current] += 1
                count(current) { $0.sent += 1 }
                outcome.useCases[request.useCase, default: StressUseCaseStats()].sent += 1
            }
            if outcome.failure != nil { break }

            // Requests unanswered for the timeout are given up on (a late reply still counts).
            if now - lastExpiryScan >= 50_000_000 || now >= drainEnd {
                lastExpiryScan = now
                var silentInstances: Set<Int> = []
                for (number, entry) in pending where now - entry.sent >= plan.timeoutNanoseconds || now >= drainEnd {
                    _ = settle(number)
                    expired[number] = entry
                    count(entry.instance) { $0.timedOut += 1 }
                    if now - entry.sent >= plan.timeoutNanoseconds { silentInstances.insert(entry.instance) }
                }
                if silentInstances.contains(current) { moveAway(because: "no answer within \(timeoutText)") }
                // An instance left behind with nothing pending has nothing more to say that counts.
                for (instance, sockets) in connections where instance != current && pendingPerInstance[instance] == 0 {
                    sockets.close()
                    connections.removeValue(forKey: instance)
                    pollerIsStale = true
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
                // Rounded up: a send due in under a millisecond waits for it in poll rather than
                // spinning through polls of zero (it leaves up to 1 ms late, which its latency,
                // measured from the intended time, includes).
                waitMilliseconds = next <= now ? 0 : min(50, Int((next - now + 999_999) / 1_000_000))
            }
            if pollerIsStale {
                poller.removeAll()
                polled.removeAll(keepingCapacity: true)
                for sockets in connections.values {
                    for socket in sockets.dealers {
                        poller.add(socket)
                        polled.append(socket)
                    }
                }
                pollerIsStale = false
            }
            do throws(ZMQError) {
                guard try poller.poll(timeoutMilliseconds: waitMilliseconds) > 0 else { continue }
                let received = MonotonicClock.nanoseconds()
                for (index, socket) in polled.enumerated() where poller.returnedEvents(at: index).contains(.pollIn) {
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
            if let key = entry.key { outcome.unknownWrites.append(StressUnknownWrite(request: entry.request, key: key, instance: entry.instance)) }
            outcome.useCases[entry.request.useCase, default: StressUseCaseStats()].errors["timeout", default: 0] += 1
        }
        progress.publish(client: plan.index, delta: delta, inFlight: 0, samples: samples)
        return outcome
    }
}

import BenchmarkSupport
import WireContract
import WireJSON
import ZeroMQ

/// One load thread of a stress run: it runs a group of clients (``PacedClient``), each sending
/// open-loop on its own fixed schedule, over one DEALER per use case per instance that the
/// group shares. Latency counts from the *intended* send time, so a stalled service cannot hide
/// its stall by slowing the clients down (no coordinated omission).
///
/// Client *i* sends to instance *i* mod *n*. When that instance stops answering — a request
/// unanswered for the timeout, the connection lost, or an `unavailable` reply — the client moves
/// to the next live instance; what it sent before stays pending there until answered or timed
/// out. Every write carries a unique idempotency key.
struct StressThread {
    private let plan: StressThreadPlan
    private let progress: StressProgress

    init(plan: StressThreadPlan, progress: StressProgress) {
        self.plan = plan
        self.progress = progress
    }

    private struct Pending {
        let request: StressRequest
        /// The client's number for it (a write's idempotency key ends with it).
        let number: UInt64
        /// The client's position in the thread's list.
        let client: Int
        let instance: Int
        let intended: UInt64
        let sent: UInt64
    }

    /// Runs the schedule to its end, waits up to the timeout for the last replies, and returns
    /// what happened. Call on a dedicated thread: it blocks in `zmq_poll`.
    func run() -> StressThreadOutcome {
        let cluster = plan.cluster
        var outcome = StressThreadOutcome(instanceCount: cluster.instances.count)
        let useCases = StressWorkload.useCases(for: plan.mix)
        var connections: [Int: any InstanceLink] = [:]
        defer { for connection in connections.values { connection.close() } }
        // Without a tick the thread waits in one poll on every link's sockets; the sockets in
        // the poller's order, to read only those it reports readable.
        let poller = ZMQPoller()
        var polled: [ZMQSocket] = []
        var pollerIsStale = true
        var delta = StressTally()
        // Into `outcome.useCases` at the end.
        var useCaseStats = UseCaseTable<StressUseCaseStats>()
        func stats(_ request: StressRequest, _ change: (inout StressUseCaseStats) -> Void) {
            useCaseStats.update(at: request.useCaseIndex, makingIt: StressUseCaseStats.init, change)
        }

        var clients = plan.clients.map { index in
            PacedClient(
                index: index, instance: index % cluster.instances.count,
                workload: StressWorkload(fixture: plan.fixture, mix: plan.mix, seed: plan.seed, clientIndex: index), runKeyPrefix: plan.keyPrefix)
        }
        let scan = ReplyScan()

        /// Counts in the run's totals and in the instance's.
        func count(_ instance: Int, _ change: (inout StressTally) -> Void) {
            change(&delta)
            change(&outcome.instances[instance])
        }

        /// Whether any client of the thread sends to `instance` now.
        func isCurrent(_ instance: Int) -> Bool {
            clients.contains { $0.current == instance }
        }

        for client in clients.indices where cluster.isDown(clients[client].current) {
            // Its instance was not running at the start.
            guard let next = cluster.nextLive(after: clients[client].current) else { continue }
            count(clients[client].current) { $0.failovers += 1 }
            clients[client].current = next
        }

        func connection(to instance: Int) throws(ZMQError) -> any InstanceLink {
            if let open = connections[instance] { return open }
            let addresses = plan.addresses[instance] ?? [:]
            let opened: any InstanceLink
            switch plan.transport {
            case .zmtp:
                opened = ZMTPInstanceLink(
                    instance: instance, addresses: addresses.compactMapValues(ZMTPAddress.init), useCases: useCases,
                    timeoutMilliseconds: Int(min(plan.timeoutNanoseconds / 1_000_000, 1_000)), maxMessageBytes: StressThreadPlan.maxReplyBytes,
                    queueLimitBytes: StressThreadPlan.maxQueuedRequestBytes)
            case .libzmq:
                opened = try ZMQInstanceLink(
                    instance: instance, context: plan.context, addresses: addresses, credentials: cluster.instances[instance].credentials,
                    useCases: useCases,
                    sendHighWaterMark: Int32(clamping: plan.maxOutstanding * clients.count * 2),
                    monitorEndpoint: cluster.canFailOver ? "inproc://stress-thread-\(plan.index)-instance-\(instance)" : nil)
            }
            connections[instance] = opened
            pollerIsStale = true
            return opened
        }

        do throws(ZMQError) {
            for instance in Set(clients.map(\.current)) { _ = try connection(to: instance) }
        } catch {
            outcome.failure = "load thread \(plan.index): cannot set up its sockets: \(error)"
            return outcome
        }

        var pending: [UInt64: Pending] = [:]
        // When each client next has a send due (0: look now; `.max`: not until a reply comes or
        // ever), so a round does not work out every client's schedule.
        var dueAt = [UInt64](repeating: 0, count: clients.count)
        var pendingPerInstance = [Int](repeating: 0, count: cluster.instances.count)
        var expired: [UInt64: Pending] = [:]
        var frames: [[UInt8]] = []
        // Latencies since the last report; the histograms live in `progress`, once for all
        // threads, so memory does not grow with the number of clients.
        var samples: [LatencySample] = []
        var lastPublish = MonotonicClock.nanoseconds()
        var lastExpiryScan = lastPublish
        let drainEnd = plan.endNanoseconds + plan.timeoutNanoseconds
        let timeoutText = Wording.seconds(Double(plan.timeoutNanoseconds) / 1e9)

        /// Moves every client on `instance` to the next live one (staying when there is none).
        func moveAway(from instance: Int, because reason: String) {
            guard cluster.canFailOver else { return }
            cluster.markDown(instance, reason: reason)
            guard let next = cluster.nextLive(after: instance) else { return }
            for client in clients.indices where clients[client].current == instance {
                count(instance) { $0.failovers += 1 }
                clients[client].current = next
            }
        }

        func settle(_ key: UInt64) -> Pending? {
            guard let entry = pending.removeValue(forKey: key) else { return nil }
            pendingPerInstance[entry.instance] -= 1
            clients[entry.client].outstanding -= 1
            dueAt[entry.client] = 0
            return entry
        }

        /// A write's idempotency key (made only when needed: a write whose outcome is unknown).
        func idempotencyKey(of entry: Pending) -> String? {
            entry.request.isWrite ? clients[entry.client].keyPrefix + String(entry.number) : nil
        }

        /// Counts `entry` answered at `now`, with its latency.
        func answered(_ entry: Pending, at now: UInt64) {
            count(entry.instance) { $0.answered += 1 }
            samples.append(LatencySample(useCaseIndex: entry.request.useCaseIndex, micros: max(1, (now &- entry.intended) / 1000)))
        }

        /// Counts `entry` answered `ok` with `result` (`nil`: not read), and applies the result to
        /// the ledger.
        func succeeded(_ entry: Pending, _ result: JSONSkim?) {
            count(entry.instance) { $0.ok += 1 }
            stats(entry.request) { $0.ok += 1 }
            entry.request.recordSuccess(result, in: &outcome.ledger)
            if case .order(let userId) = entry.request.effect, let id = result?[WireMember.order.name]?[WireMember.id.name]?.stringValue {
                clients[entry.client].workload.notePlaced(orderId: id, userId: userId)
            }
        }

        /// The request `key` answers, settled: pending, or given up on already (a late answer).
        func answering(_ key: UInt64) -> Pending? {
            if let live = settle(key) { return live }
            guard let late = expired.removeValue(forKey: key) else { return nil }
            outcome.late += 1
            count(late.instance) { $0.timedOut -= 1 }
            return late
        }

        func handle(_ body: UnsafeRawBufferPointer, at now: UInt64) {
            // Which request it answers and whether it succeeded, from its first bytes; only what
            // the checks need is read past them.
            let key: UInt64
            var succeeds = false
            var resultStart: Int?
            var document: JSONSkim?
            if let (number, end) = scan.idNumber(in: body) {
                key = UInt64(number)
                succeeds = scan.succeeds(body, after: end)
                if succeeds { resultStart = scan.resultStart(body, afterSuccessAt: end) }
            } else {
                document = JSONSkim(document: body)
                guard let id = document?[WireEnvelope.Key.id.name]?.stringValue, let parsed = UInt64(id) else {
                    outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a reply that answers none of the requests: \(String(decoding: body.prefix(200), as: UTF8.self))"))
                    return
                }
                key = parsed
            }
            guard let entry = answering(key) else {
                outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a second reply to request \(key)"))
                return
            }
            answered(entry, at: now)
            if succeeds, entry.request.resultIsUnchecked {
                succeeded(entry, nil)
                return
            }
            if let resultStart {
                // Only the result is followed, once.
                guard let result = JSONSkim(body, valueAt: resultStart) else {
                    outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a reply to request \(key) whose result is not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))"))
                    return
                }
                succeeded(entry, result)
                return
            }
            guard let document = document ?? JSONSkim(document: body) else {
                outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a reply to request \(key) that is not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))"))
                return
            }
            if succeeds || document[WireEnvelope.Key.ok.name]?.parsed == .bool(true) {
                succeeded(entry, document[WireEnvelope.Key.result.name])
                return
            }
            // An error: rare enough to read whole.
            let reply = document.parsed ?? .null
            let code = reply.replyErrorCode ?? "unreadable_error"
            stats(entry.request) { $0.errors[code, default: 0] += 1 }
            if code == entry.request.expectedRefusal?.rawValue {
                count(entry.instance) { $0.refused += 1 }
                entry.request.recordRefusal(in: &outcome.ledger)
            } else if BatchCaller.isTransient(code) {
                count(entry.instance) { $0.transient += 1 }
                // Draining or shutting down: it had no effect, and the instance is going away.
                if code == WireErrorCode.unavailable.rawValue, clients[entry.client].current == entry.instance {
                    moveAway(from: entry.instance, because: "answered unavailable")
                }
            } else if reply.replyErrorOutcome == .unknown, let key = idempotencyKey(of: entry) {
                // The service could not tell whether the write took effect: the same case as no
                // answer, settled by resending it with its key after the load.
                count(entry.instance) { $0.outcomeUnknown += 1 }
                outcome.unknownWrites.append(StressUnknownWrite(request: entry.request, key: key, instance: entry.instance))
            } else {
                // By the contract this error had no effect.
                count(entry.instance) { $0.unexpected += 1 }
            }
        }

        /// Sends what client `client` has due by `now`, unless too much of it is already
        /// waiting; returns the time it is due next, `nil` when nothing is: its schedule has
        /// ended, it waits for replies (a reply wakes the poll), or sending failed.
        func sendDue(_ client: Int, now: UInt64) -> UInt64? {
            while now < plan.endNanoseconds {
                let intended = plan.intendedTime(client: clients[client].index, slot: clients[client].scheduled)
                if intended >= plan.endNanoseconds { return nil }
                if intended > now { return intended }
                if clients[client].outstanding >= plan.maxOutstanding {
                    // Wait for a reply; the send keeps its intended time, so the wait shows up
                    // in its latency.
                    if clients[client].lastDelayedSlot != clients[client].scheduled {
                        delta.behind += 1
                        clients[client].lastDelayedSlot = clients[client].scheduled
                    }
                    return nil
                }
                let request = clients[client].workload.next()
                clients[client].scheduled += 1
                clients[client].sequence += 1
                let instance = clients[client].current, number = clients[client].sequence
                let id = PacedClient.requestId(client: clients[client].index, number: number)
                let link: any InstanceLink
                do throws(ZMQError) {
                    link = try connection(to: instance)
                } catch {
                    outcome.failure = "load thread \(plan.index): cannot connect to instance \(cluster.instances[instance].name): \(error)"
                    return nil
                }
                let outgoing = OutgoingRequest(
                    useCase: request.useCase, useCaseIndex: request.useCaseIndex, id: id, params: request.paramsJSON,
                    keyPrefix: request.isWrite ? clients[client].keyPrefix : nil, keyNumber: number)
                switch link.send(outgoing) {
                case .queued:
                    break
                case .noEndpoint:
                    continue
                case .notSent:
                    // The link's queue is full or its connection down: never sent, so it has no
                    // effect; counted.
                    count(instance) { $0.unsent += 1 }
                    continue
                }
                pending[id] = Pending(
                    request: request, number: number, client: client, instance: instance, intended: intended, sent: now)
                pendingPerInstance[instance] += 1
                clients[client].outstanding += 1
                count(instance) { $0.sent += 1 }
                stats(request) { $0.sent += 1 }
            }
            return nil
        }

        while true {
            let now = MonotonicClock.nanoseconds()
            for (instance, sockets) in connections where sockets.connectionLost() && isCurrent(instance) {
                moveAway(from: instance, because: "connection lost")
            }
            // Send everything that is due; note when the next send is.
            var nextDue = UInt64.max
            for client in clients.indices {
                if dueAt[client] <= now { dueAt[client] = sendDue(client, now: now) ?? .max }
                nextDue = min(nextDue, dueAt[client])
                if outcome.failure != nil { break }
            }
            if outcome.failure != nil { break }
            for link in connections.values { link.flush() }

            // Requests unanswered for the timeout are given up on (a late reply still counts).
            if now - lastExpiryScan >= 50_000_000 || now >= drainEnd {
                lastExpiryScan = now
                var silentInstances: Set<Int> = []
                for (key, entry) in pending where now - entry.sent >= plan.timeoutNanoseconds || now >= drainEnd {
                    _ = settle(key)
                    expired[key] = entry
                    count(entry.instance) { $0.timedOut += 1 }
                    if now - entry.sent >= plan.timeoutNanoseconds { silentInstances.insert(entry.instance) }
                }
                for instance in silentInstances where isCurrent(instance) {
                    moveAway(from: instance, because: "no answer within \(timeoutText)")
                }
                // An instance left behind with nothing pending has nothing more to say that counts.
                for (instance, sockets) in connections where pendingPerInstance[instance] == 0 && !isCurrent(instance) {
                    sockets.close()
                    connections.removeValue(forKey: instance)
                    pollerIsStale = true
                }
            }
            if now - lastPublish >= 250_000_000 {
                progress.publish(thread: plan.index, delta: delta, inFlight: pending.count, samples: samples)
                delta = StressTally()
                samples.removeAll(keepingCapacity: true)
                lastPublish = now
            }
            if now >= plan.endNanoseconds && (pending.isEmpty || now >= drainEnd) { break }

            // The wait: until the next send is due, and while replies are awaited at most one
            // tick; never less than a tick since this round began (see ``StressThreadPlan/tickNanoseconds``).
            var wakeAt = nextDue == .max ? now + 50_000_000 : nextDue
            if plan.tickNanoseconds > 0 {
                wakeAt = pending.isEmpty ? max(wakeAt, now + plan.tickNanoseconds) : now + plan.tickNanoseconds
            }
            /// Checks a reply's frames and handles its body.
            func take(_ reply: LentReply, at received: UInt64) {
                guard reply.frameCount == 2, reply.startsWithDelimiter else {
                    outcome.ledger.observe(StressViolation(invariant: "protocol", detail: "a reply of \(reply.frameCount) frames instead of [empty, body]"))
                    return
                }
                handle(reply.body, at: received)
            }
            do throws(ZMQError) {
                if plan.tickNanoseconds > 0 {
                    // Sleeps through replies: those that came meanwhile are read together.
                    MonotonicClock.sleep(until: wakeAt)
                    let received = MonotonicClock.nanoseconds()
                    for link in connections.values { try link.receiveArrived { take($0, at: received) } }
                    continue
                }
                if pollerIsStale {
                    poller.removeAll()
                    polled.removeAll(keepingCapacity: true)
                    for link in connections.values {
                        for socket in link.pollableSockets {
                            poller.add(socket)
                            polled.append(socket)
                        }
                    }
                    pollerIsStale = false
                }
                // Woken by the first reply. Rounded up: a send due in under a millisecond waits
                // for it in poll rather than spinning through polls of zero (it leaves up to 1 ms
                // late, which its latency, measured from the intended time, includes).
                let waitMilliseconds = wakeAt <= now ? 0 : min(50, Int((wakeAt - now + 999_999) / 1_000_000))
                guard try poller.poll(timeoutMilliseconds: waitMilliseconds) > 0 else { continue }
                let received = MonotonicClock.nanoseconds()
                for (index, socket) in polled.enumerated() where poller.returnedEvents(at: index).contains(.pollIn) {
                    while try socket.receiveMultipart(into: &frames, dontWait: true) != nil {
                        ZMQInstanceLink.lend(frames) { take($0, at: received) }
                    }
                }
            } catch {
                if error == .interrupted { continue }
                outcome.failure = "load thread \(plan.index): \(error)"
                break
            }
        }

        outcome.useCases = useCaseStats.byName
        // Whatever never got an answer: its effect is unknown.
        for entry in expired.values {
            if let key = idempotencyKey(of: entry) { outcome.unknownWrites.append(StressUnknownWrite(request: entry.request, key: key, instance: entry.instance)) }
            outcome.useCases[entry.request.useCase, default: StressUseCaseStats()].errors["timeout", default: 0] += 1
        }
        progress.publish(thread: plan.index, delta: delta, inFlight: 0, samples: samples)
        return outcome
    }
}

import WireContract
import Foundation
import SvcdTestSupport
import Testing
import WireJSON
import WireTestSupport
import ZeroMQ

extension StressSuite {
    /// Overload against a real `svcd --seed-sample`: at about ten times the rate one use case
    /// sustains, the excess is answered `overloaded`, every request still gets exactly one reply,
    /// svcd's resident memory stays bounded, and once the load stops the service is fully back:
    /// nothing in flight, every request ok, latency near the baseline.
    @Suite(.timeLimit(.minutes(3)))
    struct OverloadTests {
        @Test func tenTimesTheSustainableRateIsRefusedAsOverloadedInBoundedMemoryAndRecoversFully() async throws {
            let plan = OverloadPlan.self
            // A svcd that seeded its store itself, not a copy of the seeded template: its reads
            // are slower until its first checkpoint, and the open-loop sender of a
            // ThreadSanitizer build tops out near 1,000 requests/s, short of ten times what a
            // restarted svcd sustains (6.7× and 7.3× in two runs on 2026-12-08; 9.8× and 10.0×
            // with svcd seeding).
            try await withSvcd(seed: true, copyingSeededStore: false, arguments: ["--max-in-flight", String(plan.maxInFlight)]) { child in
                // Seeding the sample store takes long while many other svcd processes seed theirs
                // (a full parallel `swift test` on two cores).
                let address = try await child.endpoints(timeout: 90).address(plan.useCase)
                let svcctl = try ExecutableLocator.svcctl()

                // Warm the store's caches and the connection paths before measuring anything.
                _ = try await lockstepProbe(address, count: 10, tag: "warm")
                let baseline = try await lockstepProbe(address, count: plan.probes, tag: "baseline")
                #expect(baseline.failures.isEmpty, "baseline requests not ok: \(baseline.failures.prefix(3))")
                let baselineResident = try #require(residentBytes(ofProcess: child.pid), "no VmRSS for svcd")
                let before = try await useCaseStatistics(svcctl, child)

                let sampler = Task { await sampleResidentMemory(of: child.pid, every: .milliseconds(20)) }

                let closed = try await closedLoop(address, window: plan.closedLoopWindow, for: plan.closedLoopDuration)
                #expect(closed.failures.isEmpty, "closed-loop requests not ok: \(closed.failures.prefix(3))")
                let sustainable = Double(closed.completed) / Figures.seconds(closed.elapsed)
                try #require(sustainable > 0)

                let targetRate = sustainable * plan.overloadFactor
                let clock = ContinuousClock()
                let cpuBefore = (svcd: Figures.cpuSeconds(ofProcess: child.pid), client: Figures.cpuSeconds(ofProcess: getpid()))
                let start = clock.now.advanced(by: .milliseconds(50))
                async let senders = openLoop(address, rate: targetRate, start: start)
                // svcd's own count of requests in flight, while the load runs, every half second:
                // each sample is an svcctl process, and back to back under ThreadSanitizer they
                // took the CPU the open-loop sender needed to offer its rate.
                var inFlightSamples: [Int] = []
                while clock.now < start.advanced(by: plan.overloadDuration) {
                    inFlightSamples.append(try await useCaseStatistics(svcctl, child).inFlight)
                    try await Task.sleep(until: min(clock.now.advanced(by: .milliseconds(500)), start.advanced(by: plan.overloadDuration)))
                }
                let load = try await senders
                let loadWall = start.duration(to: clock.now)
                let cpuAfter = (svcd: Figures.cpuSeconds(ofProcess: child.pid), client: Figures.cpuSeconds(ofProcess: getpid()))
                let offered = Double(load.sent) / Figures.seconds(load.sendElapsed)

                // The last reply may reach the client before svcd has lowered its in-flight count.
                let drainStart = clock.now
                let drainDeadline = drainStart.advanced(by: .seconds(20))
                var after = try await useCaseStatistics(svcctl, child)
                while after.inFlight != 0 && clock.now < drainDeadline {
                    after = try await useCaseStatistics(svcctl, child)
                }
                let drainTime = drainStart.duration(to: clock.now)
                sampler.cancel()
                let resident = await sampler.value

                let recovery = try await lockstepProbe(address, count: plan.probes, tag: "recovery")
                let afterResident = try #require(residentBytes(ofProcess: child.pid), "no VmRSS for svcd")
                let peakResident = max(resident.peak, afterResident)
                let residentBound = baselineResident + plan.residentGrowthBound
                let recoveryBound = max(baseline.median * 3, baseline.median + .milliseconds(5))
                let goodput = Double(load.ok) / Figures.seconds(load.sendElapsed + drainTime)

                print("""
                    OverloadTests figures (\(plan.useCase) \(plan.paramsText), svcd --max-in-flight \(plan.maxInFlight)):
                      baseline latency (lockstep, \(plan.probes) requests): p50 \(Figures.milliseconds(baseline.median)) ms
                      sustainable rate (closed loop, window \(plan.closedLoopWindow), \(closed.completed) requests in \(Figures.format(Figures.seconds(closed.elapsed))) s): \(Figures.format(sustainable)) req/s
                      offered rate (open loop, \(plan.senders) DEALERs): \(Figures.format(offered)) req/s = \(Figures.format(offered / sustainable))x, \(load.sent) requests in \(Figures.format(Figures.seconds(load.sendElapsed))) s
                      in flight during the load (svcctl stats, \(inFlightSamples.count) samples): max \(inFlightSamples.max() ?? -1)
                      replies: ok \(load.ok), overloaded \(load.overloaded), other \(load.otherCodes), missing \(load.missing), duplicate \(load.duplicates), stray \(load.strays)
                      ok throughput under overload: \(Figures.format(goodput)) req/s (\(Figures.format(goodput / sustainable * 100)) % of sustainable)
                      CPU in the open-loop phase (\(Figures.format(Figures.seconds(loadWall))) s wall): svcd \(Figures.format(cpuAfter.svcd - cpuBefore.svcd)) s, test process \(Figures.format(cpuAfter.client - cpuBefore.client)) s
                      svcd stats: requests +\(after.requests - before.requests), overloaded +\(after.overloaded - before.overloaded), in flight \(after.inFlight) \(Figures.milliseconds(drainTime)) ms after the last reply
                      svcd RSS: baseline \(Figures.mebibytes(baselineResident)) MiB, peak \(Figures.mebibytes(peakResident)) MiB (\(resident.samples) samples every 20 ms), after \(Figures.mebibytes(afterResident)) MiB; bound \(Figures.mebibytes(residentBound)) MiB
                      recovery latency (lockstep, \(plan.probes) requests): p50 \(Figures.milliseconds(recovery.median)) ms, bound \(Figures.milliseconds(recoveryBound)) ms, not ok \(recovery.failures.count)
                    """)

                // About ten times the sustainable rate was really offered, open loop.
                #expect(offered >= sustainable * plan.overloadFactor * 0.8, "offered only \(Figures.format(offered)) req/s against \(Figures.format(sustainable)) sustainable")
                // Every request got exactly one reply: ok or overloaded, nothing else, nothing lost.
                #expect(load.missing == 0)
                #expect(load.duplicates == 0)
                #expect(load.strays == 0)
                #expect(load.otherCodes.isEmpty, "unexpected replies: \(load.otherCodes)")
                #expect(load.ok + load.overloaded == load.sent)
                // svcd held to its bound (--max-in-flight) and reached it.
                #expect(inFlightSamples.allSatisfy { $0 <= plan.maxInFlight }, "in flight: \(inFlightSamples)")
                #expect((inFlightSamples.max() ?? 0) >= plan.maxInFlight / 2, "in flight: \(inFlightSamples)")
                // The excess was refused: at ten times the capacity most requests are over it.
                #expect(Double(load.overloaded) >= Double(load.sent) * 0.5, "only \(load.overloaded) of \(load.sent) refused")
                // Refusing the excess did not starve the requests it accepted.
                #expect(goodput >= sustainable * plan.minimumGoodputShare, "ok throughput \(Figures.format(goodput)) req/s under overload")
                // svcd counted exactly what was sent (closed loop + open loop), and the same refusals.
                #expect(after.requests - before.requests == closed.completed + load.sent)
                #expect(after.overloaded - before.overloaded == load.overloaded)
                // Memory stayed bounded throughout.
                #expect(resident.samples >= 10, "too few RSS samples to speak for the whole run")
                #expect(peakResident <= residentBound, "peak RSS \(Figures.mebibytes(peakResident)) MiB over the bound \(Figures.mebibytes(residentBound)) MiB")
                // Full recovery: nothing in flight, every request ok, latency back near the baseline.
                #expect(after.inFlight == 0)
                #expect(recovery.failures.isEmpty, "requests after the load not ok: \(recovery.failures.prefix(3))")
                #expect(recovery.median <= recoveryBound, "recovery p50 \(Figures.milliseconds(recovery.median)) ms against baseline \(Figures.milliseconds(baseline.median)) ms")
            }
        }
    }
}

// MARK: - The plan

/// What the overload test drives, and its bounds.
private enum OverloadPlan {
    /// A read whose cost per request is high enough (measured about 4.7 ms, ~210 req/s, in a
    /// debug build) that a client on the same two cores can really offer ten times its rate.
    static let useCase = UseCaseName.searchRestaurants
    /// "a" matches nearly every sample restaurant; the default limit (50) gives ~18 KB replies.
    static let params: JSONValue = ["query": "a"]
    static let paramsText = #"{"query":"a"}"#
    /// Low enough that the bound is reached within a fraction of a second of overload and the
    /// accepted backlog drains in well under a second; the mechanism is the same as at 1024.
    static let maxInFlight = 64
    static let probes = 40
    /// Requests outstanding in the closed loop: enough to keep the endpoint busy, half the
    /// in-flight bound so that none is refused.
    static let closedLoopWindow = 32
    static let closedLoopDuration: Duration = .milliseconds(1500)
    static let overloadFactor = 10.0
    static let overloadDuration: Duration = .seconds(3)
    static let senders = 2
    /// How long a sender waits for its last replies once it has sent everything.
    static let replyDeadline: Duration = .seconds(20)
    /// svcd's RSS may grow at most this much over its baseline at any sample. Measured growth
    /// was 1 to 6 MiB in debug and ThreadSanitizer runs; what the load may legitimately hold is
    /// the in-flight requests and the sockets' queues, a few MiB.
    static let residentGrowthBound = 32 << 20
    /// Under overload the ok replies must keep coming at no less than this share of the
    /// sustainable rate (refusals cost the socket thread some time; the client shares the cores).
    static let minimumGoodputShare = 0.3

    /// One SearchRestaurants request with `id`.
    static func body(id: String) -> [UInt8] {
        request(id: id, params: params)
    }
}

// MARK: - Clients

/// Lockstep requests on one REQ socket: their latencies, sorted, and the replies that were not ok.
private struct LockstepProbe: Sendable {
    let latencies: [Duration]
    let failures: [String]
    var median: Duration { latencies.isEmpty ? .zero : latencies[latencies.count / 2] }
}

private func lockstepProbe(_ address: String, count: Int, tag: String) async throws -> LockstepProbe {
    try await withClient(.req, address, receiveTimeout: 10_000) { client in
        let clock = ContinuousClock()
        var latencies: [Duration] = []
        var failures: [String] = []
        for index in 0..<count {
            let sentAt = clock.now
            guard let reply = try client.call(OverloadPlan.body(id: "\(tag)-\(index)")) else {
                throw ChildFailure("no reply from \(address) within 10 s")
            }
            latencies.append(sentAt.duration(to: clock.now))
            if reply.ok != true { failures.append(reply.description) }
        }
        return LockstepProbe(latencies: latencies.sorted(), failures: failures)
    }
}

/// A closed loop on one DEALER: `window` requests outstanding until `duration` has passed.
private struct ClosedLoopRun: Sendable {
    let completed: Int
    let elapsed: Duration
    let failures: [String]
}

private func closedLoop(_ address: String, window: Int, for duration: Duration) async throws -> ClosedLoopRun {
    try await withClient(.dealer, address, receiveTimeout: 10_000) { client in
        let clock = ContinuousClock()
        let start = clock.now
        let end = start.advanced(by: duration)
        var sent = 0
        var completed = 0
        var failures: [String] = []
        while true {
            while sent - completed < window && clock.now < end {
                try client.send(body: OverloadPlan.body(id: "closed-\(sent)"))
                sent += 1
            }
            if completed == sent { break }
            guard let reply = try client.receiveReply() else { throw ChildFailure("no reply from \(address) within 10 s") }
            completed += 1
            if reply.ok != true { failures.append(reply.description) }
        }
        return ClosedLoopRun(completed: completed, elapsed: start.duration(to: clock.now), failures: failures)
    }
}

/// `rate` requests per second from ``OverloadPlan/senders`` DEALERs, each on its own thread, from
/// `start` for ``OverloadPlan/overloadDuration``; what they saw together.
private func openLoop(_ address: String, rate: Double, start: ContinuousClock.Instant) async throws -> OpenLoopTally {
    let perSender = rate / Double(OverloadPlan.senders)
    let tallies = try await withThrowingTaskGroup(of: OpenLoopTally.self) { group in
        for sender in 0..<OverloadPlan.senders {
            group.addTask {
                try await onThread {
                    try openLoopSender(
                        sender, address: address, rate: perSender, start: start,
                        duration: OverloadPlan.overloadDuration, replyDeadline: OverloadPlan.replyDeadline)
                }
            }
        }
        return try await group.reduce(into: []) { $0.append($1) }
    }
    return OpenLoopTally.combined(tallies)
}

/// What one open-loop sender saw.
private struct OpenLoopTally: Sendable {
    var sent = 0
    /// From the common start to this sender's last send.
    var sendElapsed: Duration = .zero
    var ok = 0
    var overloaded = 0
    var otherCodes: [String: Int] = [:]
    /// Requests that got no reply before the deadline.
    var missing = 0
    /// Replies beyond the first to one request.
    var duplicates = 0
    /// Replies whose id names no request of this sender.
    var strays = 0

    static func combined(_ tallies: [OpenLoopTally]) -> OpenLoopTally {
        var total = OpenLoopTally()
        for tally in tallies {
            total.sent += tally.sent
            total.sendElapsed = max(total.sendElapsed, tally.sendElapsed)
            total.ok += tally.ok
            total.overloaded += tally.overloaded
            total.otherCodes.merge(tally.otherCodes, uniquingKeysWith: +)
            total.missing += tally.missing
            total.duplicates += tally.duplicates
            total.strays += tally.strays
        }
        return total
    }
}

/// Sends request n at `start + n / rate` for `duration`, whatever the replies do (open loop),
/// reading replies between sends on the same DEALER (its own thread and context), then waits up
/// to `replyDeadline` for the rest. Blocks; run it on its own thread.
private func openLoopSender(
    _ sender: Int, address: String, rate: Double, start: ContinuousClock.Instant, duration: Duration, replyDeadline: Duration
) throws -> OpenLoopTally {
    let client = try WireClient(.dealer, connectTo: address, receiveTimeout: 0)
    defer { client.close() }
    let poller = ZMQPoller()
    _ = poller.add(client.socket, events: .pollIn)
    let clock = ContinuousClock()
    let total = Int(rate * Figures.seconds(duration))
    let prefix = "open\(sender)-"
    var replies = [Int](repeating: 0, count: total)
    var answered = 0
    var tally = OpenLoopTally()

    func readAvailable() throws {
        while let frames = try client.receiveFrames() {
            let reply = Reply(frames: frames)
            guard let id = reply.id?.stringValue, id.hasPrefix(prefix), let index = Int(id.dropFirst(prefix.count)), index < total else {
                tally.strays += 1
                continue
            }
            replies[index] += 1
            if replies[index] > 1 {
                tally.duplicates += 1
                continue
            }
            answered += 1
            if reply.ok == true {
                tally.ok += 1
            } else if reply.code == "overloaded" {
                tally.overloaded += 1
            } else {
                tally.otherCodes[reply.code ?? reply.description, default: 0] += 1
            }
        }
    }

    /// Waits for a reply for at most `timeout` (at least 1 ms, so the loop never spins).
    func waitForReplies(_ timeout: Duration) throws {
        let milliseconds = max(1, Int((Figures.seconds(timeout) * 1000).rounded(.up)))
        do {
            try poller.poll(timeoutMilliseconds: milliseconds)
        } catch ZMQError.interrupted {
            return
        }
        try readAvailable()
    }

    while tally.sent < total {
        let now = clock.now
        let due = now < start ? 0 : min(total, Int(Figures.seconds(start.duration(to: now)) * rate) + 1)
        while tally.sent < due {
            try client.send(body: OverloadPlan.body(id: prefix + String(tally.sent)))
            tally.sent += 1
        }
        if tally.sent == total {
            tally.sendElapsed = start.duration(to: clock.now)
            break
        }
        let next = start.advanced(by: .nanoseconds(Int64(Double(tally.sent) / rate * 1e9)))
        try waitForReplies(clock.now.duration(to: next))
    }
    let deadline = clock.now.advanced(by: replyDeadline)
    while answered < total && clock.now < deadline {
        try waitForReplies(.milliseconds(50))
    }
    tally.missing = total - answered
    return tally
}

// MARK: - svcd's side

/// SearchRestaurants' counters from `svcctl stats --json`.
private struct UseCaseCounters {
    let requests: Int
    let overloaded: Int
    let inFlight: Int
}

private func useCaseStatistics(_ svcctl: String, _ child: SvcdChild) async throws -> UseCaseCounters {
    let outcome = try await runTool(svcctl, ["stats", "--data-dir", child.dataDirectory, "--json"], timeout: 20)
    try #require(outcome.status == 0, "svcctl stats failed (\(String(describing: outcome.status))): \(outcome.stderr)")
    let stats = try #require(try? JSONParser.parse(Array(outcome.stdout.utf8)), "svcctl stats printed no JSON: \(outcome.stdout)")
    let entry = try #require(stats["useCases"]?[OverloadPlan.useCase.rawValue], "no \(OverloadPlan.useCase.rawValue) in \(outcome.stdout)")
    return UseCaseCounters(
        requests: try #require(entry["requests"]?.intValue),
        overloaded: entry["errors"]?["overloaded"]?.intValue ?? 0,
        inFlight: try #require(entry["inFlight"]?.intValue)
    )
}

/// The largest RSS seen, sampling every `interval` until the task is cancelled.
private func sampleResidentMemory(of pid: Int32, every interval: Duration) async -> (peak: Int, samples: Int) {
    var peak = 0
    var samples = 0
    while !Task.isCancelled {
        if let resident = residentBytes(ofProcess: pid) {
            peak = max(peak, resident)
            samples += 1
        }
        try? await Task.sleep(for: interval)
    }
    return (peak, samples)
}

// MARK: - Figures

/// Conversions for the printed figures and the rate arithmetic.
private enum Figures {
    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    static func milliseconds(_ duration: Duration) -> String { Figures.format(Figures.seconds(duration) * 1000) }

    static func mebibytes(_ bytes: Int) -> String { Figures.format(Double(bytes) / 1_048_576) }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    /// User + system CPU time of a process from `/proc/<pid>/stat` (fields 14 and 15, in clock
    /// ticks); 0 when it cannot be read.
    static func cpuSeconds(ofProcess pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        // Fields after the command name, which may contain spaces: state is field 3.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

import ArgumentParser
import Dispatch
import Foundation
import Histogram
import WireContract
import WireJSON
import ZeroMQ

/// `svcctl stress`: drives one running svcd, or several instances of one cluster, from many
/// concurrent clients, open-loop, then checks the contract's invariants through the public use
/// cases. Exit 0 when the run is clean, 1 on any invariant violation or unexpected error reply.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Load svcd from many concurrent clients, then check the invariants (exit 1 on any violation).",
        discussion: """
            Each client is a thread with its own DEALER socket per use case. Requests leave on a \
            fixed schedule (open loop) and latency is measured from the intended send time, so a \
            stall shows in the percentiles instead of slowing the load down. The run creates its \
            own users, restaurants and menu items (named with a random tag) and races them on \
            purpose: one user's favourites, one item's stock, one restaurant's reviews, a few email \
            addresses registered in mixed case. Afterwards it reads the store back through the use \
            cases and checks: favourites ≤ 100 per user, stock never negative and conserved, unique \
            emails, rating = mean of reviews, consistent order totals. A live progress line goes to \
            stderr; the report to stdout (--json: one JSON object).

            Several instances (repeated --data-dir, or --cluster FILE) must share one database; \
            client i sends to instance i mod n and moves to the next live instance when its own \
            stops answering (a timeout, a lost connection, `unavailable`). Set-up, resolution and \
            checks use any live instance. Every write carries a unique idempotency key; after the \
            load, writes of unknown outcome are sent again with their keys and the answers settle \
            them (only with an svcd that binds keys; --no-resolve skips this).
            """
    )

    @OptionGroup var targets: StressTargetOptions

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "How long to send: 60s, 2m, 1m30s, 500ms or seconds.")
    var duration: StressDuration = StressDuration(seconds: 60)

    @Option(name: .long, help: "Requests per second over all clients (open loop).")
    var rate: Double = 2000

    @Option(name: .long, help: "Concurrent clients, each a thread with its own sockets.")
    var clients: Int = 64

    @Option(name: .long, help: ArgumentHelp("Weights of the operation kinds.", valueName: StressMix.syntax))
    var mix: StressMix = .standard

    @Option(name: .long, help: "Users the run registers (half only save favourites, so theirs are checked exactly).")
    var users: Int = 128

    @Option(name: .long, help: "Requests one client may have waiting for replies; beyond it sends are delayed (and the delay counted in latency).")
    var maxOutstanding: Int = 256

    @Option(name: .long, help: "Seed of the request choices (default: random; printed in the report).")
    var seed: UInt64?

    @Option(name: .long, help: "Tax rate to check order totals against (default: what svcd's admin status reports, else 0.08).")
    var taxRate: String?

    @Flag(name: .long, help: "No live progress line on stderr.")
    var noProgress = false

    @Flag(name: .long, help: "Leave writes of unknown outcome unknown instead of resending them with their idempotency keys after the load.")
    var noResolve = false

    func validate() throws {
        guard rate > 0, rate <= 1_000_000, rate.isFinite else { throw ValidationError("--rate must be between 0 and 1000000 requests per second") }
        guard (1...1024).contains(clients) else { throw ValidationError("--clients must be 1…1024") }
        guard (2...100_000).contains(users) else { throw ValidationError("--users must be 2…100000") }
        guard (1...100_000).contains(maxOutstanding) else { throw ValidationError("--max-outstanding must be 1…100000") }
        guard duration.seconds <= 7 * 86_400 else { throw ValidationError("--duration must be at most 7 days") }
        if let taxRate, Self.partsPerMillion(taxRate) == nil {
            throw ValidationError("--tax-rate must be a decimal fraction 0…1 with at most 6 decimals, e.g. 0.08")
        }
    }

    /// Parses "0.08" into parts per million (80,000); `nil` if it is not a plain decimal in 0…1.
    static func partsPerMillion(_ text: String) -> Int? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }), let wholeValue = Int(whole) else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 6, fraction.allSatisfy({ $0.isASCII && $0.isNumber }), parts.count == 1 || !fraction.isEmpty else { return nil }
        while fraction.count < 6 { fraction += "0" }
        let value = wholeValue * 1_000_000 + (Int(fraction) ?? 0)
        return (0...1_000_000).contains(value) ? value : nil
    }

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let cluster = try locateInstances()
            let seed = self.seed ?? UInt64.random(in: 1...UInt64.max)
            let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            // Idempotency keys must never repeat, not even across runs: the tag alone is short.
            let keyPrefix = "stress-\(tag)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            let taxPartsPerMillion = resolveTaxRate(cluster: cluster)
            var addresses: [[UseCaseName: String]?] = []
            for instance in cluster.instances {
                guard let endpoints = instance.endpoints else {
                    addresses.append(nil)
                    continue
                }
                var byUseCase: [UseCaseName: String] = [:]
                for useCase in StressWorkload.useCases(for: mix) + [.getOrder, .createRestaurant, .addMenuItem, .registerUser] {
                    byUseCase[useCase] = try endpoints.address(of: useCase)
                }
                addresses.append(byUseCase)
            }

            // Set-up, resolution and checks are reads and writes that must all be answered; they
            // wait at least 30 s per answer, so a service still digesting the load is not mistaken
            // for a dead one.
            let waitMilliseconds = max(options.timeoutMilliseconds, 30_000)
            let caller = try BatchCaller(cluster: cluster, timeoutMilliseconds: waitMilliseconds, keyPrefix: keyPrefix + "-s")
            note("setting up: run \(tag), \(users) users, \(StressFixture.ownRestaurantCount) restaurants with "
                + "\(StressFixture.ownRestaurantCount * StressFixture.itemsPerRestaurant) menu items")
            let probe = try SharedStoreProbe.run(
                caller: caller, cluster: cluster, tag: tag, timeoutMilliseconds: waitMilliseconds, keyPrefix: keyPrefix + "-p")
            caller.keysHonoured = probe.keysHonoured
            let fixture = try StressFixture.prepare(caller: caller, tag: tag, userCount: users, taxPartsPerMillion: taxPartsPerMillion)
            note("sending \(Int(rate)) requests/s from \(clients) clients for \(duration) (mix \(mix), seed \(seed)) to \(describe(cluster))")

            var load = try runLoad(cluster: cluster, fixture: fixture, addresses: addresses, seed: seed, keyPrefix: keyPrefix)
            let resolution: StressResolution
            let unknown = load.unknownWrites.count
            if noResolve || unknown == 0 {
                for write in load.unknownWrites { write.request.recordUnknown(in: &load.ledger) }
                resolution = StressResolution(enabled: !noResolve, keysHonoured: probe.keysHonoured, unknownAfterLoad: unknown, stillUnknown: unknown)
            } else {
                note("resending \(unknown) writes of unknown outcome with their idempotency keys")
                resolution = try UnknownOutcomeResolver(caller: caller, keysHonoured: probe.keysHonoured).resolve(load.unknownWrites, into: &load.ledger)
            }
            note("checking invariants")
            let invariants = try InvariantChecker(caller: caller, fixture: fixture, ledger: load.ledger).run()

            var settings = JSONObject()
            settings.append(key: "duration", value: .string(duration.description))
            settings.append(key: "rate", value: .double(rate))
            settings.append(key: "clients", value: .int(clients))
            settings.append(key: "mix", value: .string(mix.description))
            settings.append(key: "users", value: .int(users))
            settings.append(key: "maxOutstanding", value: .int(maxOutstanding))
            settings.append(key: "timeoutSeconds", value: .double(options.timeout))
            settings.append(key: "seed", value: .string(String(seed)))
            settings.append(key: "run", value: .string(tag))
            settings.append(key: "taxRate", value: .double(Double(taxPartsPerMillion) / 1_000_000))
            settings.append(key: "instances", value: .int(cluster.instances.count))
            settings.append(key: "resolve", value: .bool(!noResolve))
            let report = StressReport(
                settings: settings, elapsedSeconds: load.elapsedSeconds, tally: load.tally, late: load.late,
                latency: load.latency, useCases: load.useCases, invariants: invariants, clientFailures: load.failures,
                instances: summaries(cluster: cluster, load: load, probe: probe), resolution: resolution)
            printOut(options.json ? prettyJSON(report.json) : report.text)
            if !report.isClean {
                throw CtlFailure(ExitStatus.serviceError, "")
            }
        }
    }

    /// Finds every instance named; exit 69 when none of them is running.
    private func locateInstances() throws(CtlFailure) -> StressCluster {
        var instances: [StressInstance] = []
        for target in try targets.endpointsFiles() {
            instances.append(try StressInstance.locate(name: target.name, endpointsFile: target.endpointsFile, options: options))
        }
        guard instances.contains(where: { $0.endpoints != nil }) else {
            if instances.count == 1 { throw CtlFailure(ExitStatus.unavailable, instances[0].absence ?? "svcd is not running") }
            let reasons = instances.map { "\($0.name): \($0.absence ?? "not running")" }
            throw CtlFailure(ExitStatus.unavailable, "no instance is running: " + reasons.joined(separator: "; "))
        }
        for instance in instances where instance.endpoints == nil {
            note("\(instance.name) is not running (\(instance.absence ?? "no endpoints.json")); its clients start on the next instance")
        }
        return StressCluster(instances: instances)
    }

    /// `svcd pid N` for one instance, `N instances (pids …)` for several.
    private func describe(_ cluster: StressCluster) -> String {
        if cluster.instances.count == 1 { return "svcd pid \(cluster.instances[0].endpoints?.pid ?? 0)" }
        let pids = cluster.instances.map { $0.endpoints.map { String($0.pid) } ?? "-" }
        return "\(cluster.instances.count) instances (pids \(pids.joined(separator: ", ")))"
    }

    /// Each instance's part in the run, for the report.
    private func summaries(cluster: StressCluster, load: LoadResult, probe: SharedStoreProbe) -> [StressInstanceSummary] {
        let marks = cluster.downMarks()
        return cluster.instances.indices.map { index in
            let mark = marks[index]
            return StressInstanceSummary(
                name: cluster.instances[index].name, pid: cluster.instances[index].endpoints?.pid,
                clients: (0..<clients).filter { $0 % cluster.instances.count == index }.count,
                tally: load.instances[index], downReason: mark?.reason,
                downAtSecond: mark?.atNanoseconds.map { (Double($0) - Double(load.startNanoseconds)) / 1e9 },
                keys: probe.findings[index])
        }
    }

    /// A line on stderr, unless progress output is off.
    private func note(_ message: String) {
        if !noProgress { FileHandle.standardError.write(Data("svcctl stress: \(message)\n".utf8)) }
    }

    /// `--tax-rate`, else the admin `status` `taxRate` of the first instance that answers, else 0.08.
    private func resolveTaxRate(cluster: StressCluster) -> Int {
        if let taxRate, let value = Self.partsPerMillion(taxRate) { return value }
        for endpoints in cluster.instances.compactMap(\.endpoints) {
            if let admin = try? AdminClient(common: options, endpoints: endpoints),
                let status = try? admin.call(op: .status),
                let text = status["taxRate"]?.stringValue, let value = Self.partsPerMillion(text)
            {
                return value
            }
        }
        note("svcd's tax rate is not available through the admin endpoint; checking order totals at 0.08 (see --tax-rate)")
        return 80_000
    }

    /// What the clients did, merged.
    private struct LoadResult {
        var tally = StressTally()
        var ledger = StressLedger()
        var latency = makeLatencyHistogram()
        var useCases: [(name: String, stats: StressUseCaseStats)] = []
        var late = 0
        var failures: [String] = []
        var elapsedSeconds = 0.0
        /// Per instance: what was sent there and how it fared.
        var instances: [StressTally] = []
        /// Writes whose outcome no client knows.
        var unknownWrites: [StressUnknownWrite] = []
        /// The schedule's origin on the monotonic clock.
        var startNanoseconds: UInt64 = 0
    }

    /// Starts the client threads, prints progress until they finish, and merges their outcomes.
    private func runLoad(
        cluster: StressCluster, fixture: StressFixture, addresses: [[UseCaseName: String]?], seed: UInt64, keyPrefix: String
    ) throws(CtlFailure) -> LoadResult {
        // One context per 16 clients keeps each below libzmq's default of 1023 sockets.
        var contexts: [ZMQContext] = []
        do throws(ZMQError) {
            for _ in 0..<((clients + 15) / 16) { contexts.append(try ZMQContext(ioThreads: 1, blocky: false)) }
        } catch {
            throw CtlFailure(ExitStatus.unavailable, "cannot create a ZeroMQ context: \(error)")
        }
        defer { for context in contexts { context.terminate() } }

        let progress = StressProgress(clients: clients)
        let outcomes = OutcomeSlots(count: clients)
        let group = DispatchGroup()
        let interval = 1e9 * Double(clients) / rate
        let start = monotonicNanoseconds() + 200_000_000  // time for every thread to connect
        let end = start + duration.nanoseconds
        for index in 0..<clients {
            let plan = StressClientPlan(
                index: index, context: contexts[index / 16], cluster: cluster, addresses: addresses, fixture: fixture, mix: mix,
                seed: seed, startNanoseconds: start, endNanoseconds: end, intervalNanoseconds: interval,
                phaseNanoseconds: interval * Double(index) / Double(clients), maxOutstanding: maxOutstanding,
                timeoutNanoseconds: UInt64(options.timeoutMilliseconds) * 1_000_000, keyPrefix: keyPrefix)
            group.enter()
            let thread = Thread {
                let outcome = StressClient(plan: plan, progress: progress).run()
                outcomes.store(outcome, at: index)
                group.leave()
            }
            thread.name = "stress-client-\(index)"
            thread.start()
        }

        let line = ProgressLine(enabled: !noProgress, totalSeconds: duration.seconds)
        while group.wait(timeout: .now() + 1) == .timedOut {
            let snapshot = progress.snapshot()
            let elapsed = Double(Int64(monotonicNanoseconds()) - Int64(start)) / 1e9
            line.show(elapsed: max(0, elapsed), tally: snapshot.tally, inFlight: snapshot.inFlight, recent: snapshot.recent)
        }
        line.finish()

        var result = LoadResult()
        result.startNanoseconds = start
        result.instances = [StressTally](repeating: StressTally(), count: cluster.instances.count)
        // Every client published its last counts before it finished.
        result.tally = progress.snapshot().tally
        var perUseCase: [UseCaseName: StressUseCaseStats] = [:]
        for outcome in outcomes.all() {
            result.ledger.merge(outcome.ledger)
            result.unknownWrites += outcome.unknownWrites
            for (index, tally) in outcome.instances.enumerated() { result.instances[index] += tally }
            result.late += outcome.late
            if let failure = outcome.failure { result.failures.append(failure) }
            for (name, stats) in outcome.useCases { perUseCase[name, default: StressUseCaseStats()].merge(stats) }
        }
        for (name, histogram) in progress.latencies() {
            perUseCase[name, default: StressUseCaseStats()].latency = histogram
            result.latency.add(histogram)
        }
        let order = StressWorkload.useCases(for: mix)
        // The mix's use cases first, in its order; then the others in endpoint order.
        func rank(_ name: UseCaseName) -> (Int, Int) { (order.firstIndex(of: name) ?? .max, name.portOffset) }
        result.useCases = perUseCase.sorted { rank($0.key) < rank($1.key) }.map { ($0.key.rawValue, $0.value) }
        result.elapsedSeconds = Double(monotonicNanoseconds() - start) / 1e9
        return result
    }
}

import ArgumentParser
import Foundation
import LoadEngine
import WireJSON

/// `svcctl stress`: drives one running svcd, or several instances of one cluster, from many
/// concurrent clients, open-loop, then checks the contract's invariants through the public use
/// cases (LoadEngine's ``StressRun``; this command adds the arguments, the notes and progress
/// line on stderr, and the report). Exit 0 when the run is clean, 1 on any invariant violation
/// or unexpected error reply.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Load svcd from many concurrent clients, then check the invariants (exit 1 on any violation).",
        discussion: """
            Clients are spread over --threads threads; a thread's clients share its DEALER \
            sockets (one per use case per instance). Requests leave on a \
            fixed schedule (open loop) and latency is measured from the intended send time, so a \
            stall shows in the percentiles instead of slowing the load down. The run creates its \
            own users, restaurants and menu items (named with a random tag) and races them on \
            purpose: one user's favourites, one item's stock (orders, cancels and restocks), one restaurant's reviews, a few email \
            addresses registered in mixed case. Afterwards it reads the store back through the use \
            cases and checks: favourites ≤ 100 per user, stock never negative and conserved (returns of cancelled orders included), unique \
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

    @OptionGroup var targets: InstanceTargetOptions

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "How long to send: 60s, 2m, 1m30s, 500ms or seconds.")
    var duration: StressDuration = StressDuration(seconds: 60)

    @Option(name: .long, help: "Requests per second over all clients (open loop).")
    var rate: Double = 2000

    @Option(name: .long, help: "Concurrent clients, each with its own schedule, requests and instance.")
    var clients: Int = 64

    @Option(name: .long, help: "Threads the clients are spread over; a thread's clients share its connections (one per use case per instance). Default: one per \(StressPlan.ratePerThread) requests/s of --rate.")
    var threads: Int?

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

    @Option(name: .long, help: "Largest share (0…1) of the requests sent that may be refused as overloaded, unavailable or past their deadline, go unanswered, or end with an unknown outcome, for the run to count as clean: beyond it the load was more than the service sustains, and the invariants were checked on too little.")
    var maxRefusedShare: Double = StressReport.defaultMaximumRefusedShare

    @Option(name: .long, help: "Also write one JSON line per --sample-interval to FILE (and one for the rest of the run at its end): counts so far, requests in flight, and the p50, p99 and largest latency of that interval.")
    var samples: String?

    @Option(name: .long, help: "How often --samples writes a line: 10s, 1m, 500ms or seconds.")
    var sampleInterval: StressDuration = StressDuration(seconds: 10)

    @Option(name: .long, help: "Milliseconds (0…50) between a load thread's wake-ups: it sends what is due and reads the replies that came together, so latencies are up to a tick high; 0 wakes for every reply and send (exact latencies, more CPU).")
    var tickMs: Double = Double(StressPlan.defaultTickNanoseconds) / 1e6

    @Option(name: .long, help: "How the load threads connect: zmtp (each thread speaks ZMTP over TCP itself: no other thread woken per request; taken when every endpoint is plain tcp:// without CURVE and --tick-ms is above 0, else libzmq) or libzmq (DEALER sockets).")
    var transport: StressTransport = .zmtp

    @Flag(name: .long, help: "No live progress line on stderr.")
    var noProgress = false

    @Flag(name: .long, help: "Leave writes of unknown outcome unknown instead of resending them with their idempotency keys after the load.")
    var noResolve = false

    func validate() throws {
        guard rate > 0, rate <= 1_000_000, rate.isFinite else { throw ValidationError("--rate must be more than 0 and at most 1000000 requests per second") }
        guard (1...1024).contains(clients) else { throw ValidationError("--clients must be 1…1024") }
        if let threads, !(1...64).contains(threads) { throw ValidationError("--threads must be 1…64") }
        guard (2...100_000).contains(users) else { throw ValidationError("--users must be 2…100000") }
        guard maxRefusedShare >= 0, maxRefusedShare <= 1 else { throw ValidationError("--max-refused-share must be between 0 and 1, e.g. 0.25") }
        guard (1...100_000).contains(maxOutstanding) else { throw ValidationError("--max-outstanding must be 1…100000") }
        guard duration.seconds <= 7 * 86_400 else { throw ValidationError("--duration must be at most 7 days") }
        guard tickMs >= 0, tickMs <= 50 else { throw ValidationError("--tick-ms must be 0…50 (milliseconds; 0 wakes for every reply)") }
        guard sampleInterval.seconds >= 1, sampleInterval.seconds <= 3600 else { throw ValidationError("--sample-interval must be 1s…1h") }
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
            let sampleLog = try StressSampleLog(path: samples, intervalSeconds: sampleInterval.seconds)
            let cluster = try locateInstances()
            let taxPartsPerMillion = resolveTaxRate(cluster: cluster)
            let plan = StressPlan(
                cluster: cluster, durationNanoseconds: duration.nanoseconds, rate: rate, clients: clients, threads: threads ?? StressPlan.defaultThreads(rate: rate), mix: mix, users: users,
                maxOutstanding: maxOutstanding, seed: seed ?? UInt64.random(in: 1...UInt64.max), timeoutMilliseconds: options.timeoutMilliseconds,
                taxPartsPerMillion: taxPartsPerMillion, resolve: !noResolve, tickNanoseconds: UInt64(tickMs * 1e6),
                transport: transport)
            let line = ProgressLine(enabled: !noProgress, totalSeconds: duration.seconds)
            let outcome: StressOutcome
            do throws(LoadFailure) {
                outcome = try StressRun.execute(plan, events: { announce($0, plan: plan, line: line) }) { snapshot in
                    // The last snapshot covers less than a second: the progress line's rate would be wrong.
                    if !snapshot.isFinal {
                        line.show(elapsed: snapshot.elapsedSeconds, tally: snapshot.tally, inFlight: snapshot.inFlight, recent: snapshot.recent)
                    }
                    sampleLog.add(snapshot)
                }
            } catch {
                throw CtlFailure(error)
            }

            var settings = JSONObject()
            settings.append(key: "duration", value: .string(duration.description))
            settings.append(key: "rate", value: .double(rate))
            settings.append(key: "clients", value: .int(clients))
            settings.append(key: "threads", value: .int(plan.threads))
            settings.append(key: "mix", value: .string(mix.description))
            settings.append(key: "users", value: .int(users))
            settings.append(key: "maxOutstanding", value: .int(maxOutstanding))
            settings.append(key: "tickMs", value: .double(tickMs))
            settings.append(key: "transport", value: .string(outcome.load.transport.rawValue))
            settings.append(key: "timeoutSeconds", value: .double(options.timeout))
            settings.append(key: "seed", value: .string(String(plan.seed)))
            settings.append(key: "run", value: .string(plan.tag))
            settings.append(key: "taxRate", value: .double(Double(taxPartsPerMillion) / 1_000_000))
            settings.append(key: "instances", value: .int(cluster.instances.count))
            settings.append(key: "resolve", value: .bool(!noResolve))
            settings.append(key: "maxRefusedShare", value: .double(maxRefusedShare))
            let load = outcome.load
            let report = StressReport(
                settings: settings, elapsedSeconds: load.elapsedSeconds, tally: load.tally, late: load.late,
                latency: load.latency, useCases: load.useCases, invariants: outcome.invariants, clientFailures: load.failures,
                instances: summaries(plan: plan, outcome: outcome), resolution: outcome.resolution, maximumRefusedShare: maxRefusedShare)
            printOut(options.json ? prettyJSON(report.json) : report.text)
            if !report.isClean {
                throw CtlFailure(ExitStatus.serviceError, "")
            }
        }
    }

    /// Finds every instance named; exit 69 when none of them is running.
    private func locateInstances() throws(CtlFailure) -> LoadCluster {
        var instances: [LoadInstance] = []
        for target in try targets.endpointsFiles() {
            instances.append(try LoadInstance.locate(name: target.name, endpointsFile: target.endpointsFile, options: options))
        }
        guard instances.contains(where: { $0.endpoints != nil }) else {
            if instances.count == 1 { throw CtlFailure(ExitStatus.unavailable, instances[0].absence ?? "svcd is not running") }
            let reasons = instances.map { "\($0.name): \($0.absence ?? "not running")" }
            throw CtlFailure(ExitStatus.unavailable, "no instance is running: " + reasons.joined(separator: "; "))
        }
        for instance in instances where instance.endpoints == nil {
            note("\(instance.name) is not running (\(instance.absence ?? "no endpoints.json")); its clients start on the next instance")
        }
        return LoadCluster(instances: instances)
    }

    /// The note for each stage of the run (the redrawn progress line ends with the load).
    private func announce(_ event: StressEvent, plan: StressPlan, line: ProgressLine) {
        switch event {
        case .settingUp(let restaurants, let menuItems):
            note("setting up: run \(plan.tag), \(users) users, \(restaurants) restaurants with \(menuItems) menu items")
        case .loadStarting:
            note("sending \(Int(rate)) requests/s from \(clients) clients on \(plan.threads) threads for \(duration) (mix \(mix), seed \(plan.seed)) to \(describe(plan.cluster))")
        case .loadFinished:
            line.finish()
        case .resendingUnknownOutcomes(let count):
            note("resending \(count) writes of unknown outcome with their idempotency keys")
        case .checkingInvariants:
            note("checking invariants")
        }
    }

    /// `svcd pid N` for one instance, `N instances (pids …)` for several.
    private func describe(_ cluster: LoadCluster) -> String {
        if cluster.instances.count == 1 { return "svcd pid \(cluster.instances[0].pid ?? 0)" }
        let pids = cluster.instances.map { $0.pid.map(String.init) ?? "-" }
        return "\(cluster.instances.count) instances (pids \(pids.joined(separator: ", ")))"
    }

    /// Each instance's part in the run, for the report.
    private func summaries(plan: StressPlan, outcome: StressOutcome) -> [StressInstanceSummary] {
        plan.cluster.instances.indices.map { index in
            let mark = outcome.downMarks[index]
            return StressInstanceSummary(
                name: plan.cluster.instances[index].name, pid: plan.cluster.instances[index].pid,
                clients: plan.clients(of: index), tally: outcome.load.instances[index], downReason: mark?.reason,
                downAtSecond: mark?.atNanoseconds.map { (Double($0) - Double(outcome.load.startNanoseconds)) / 1e9 },
                keys: outcome.keyFindings[index])
        }
    }

    /// A line on stderr, unless progress output is off.
    private func note(_ message: String) {
        if !noProgress { FileHandle.standardError.write(Data("svcctl stress: \(message)\n".utf8)) }
    }

    /// `--tax-rate`, else the admin `status` `taxRate` of the first instance that answers, else 0.08.
    private func resolveTaxRate(cluster: LoadCluster) -> Int {
        if let taxRate, let value = Self.partsPerMillion(taxRate) { return value }
        for endpoints in cluster.instances.compactMap(\.endpoints) {
            if let admin = try? AdminClient(common: options, endpoints: ServiceEndpoints(file: endpoints)),
                let status = try? admin.call(op: .status),
                let text = status["taxRate"]?.stringValue, let value = Self.partsPerMillion(text)
            {
                return value
            }
        }
        note("svcd's tax rate is not available through the admin endpoint; checking order totals at 0.08 (see --tax-rate)")
        return 80_000
    }
}

import BenchmarkSupport
import WireContract
import ZeroMQ

/// The load of a stress run: `clients` paced clients (``PacedClient``) spread over the plan's
/// load threads (``StressThread``; client *i* on thread *i* mod *threads*), sending `rate`
/// requests a second between them for the plan's duration, while the calling thread hands a
/// progress snapshot to `progress` about once a second, and a last one when they have finished.
struct StressLoad {
    let plan: StressPlan
    let fixture: StressFixture
    /// Use-case addresses of each instance (`nil` for one not running at the start).
    let addresses: [[UseCaseName: String]?]

    /// Starts the load threads, reports progress until they finish, and merges their outcomes.
    func run(progress report: (StressProgressSnapshot) -> Void) throws(LoadFailure) -> StressLoadResult {
        let threads = plan.threads
        // One I/O thread carries every connection: the load threads' sockets are few (a DEALER
        // per use case per instance each) and their traffic is what one core moves easily.
        let context: ZMQContext
        do throws(ZMQError) {
            context = try ZMQContext(ioThreads: 1, blocky: false)
        } catch {
            throw LoadFailure(.unavailable, "cannot create a ZeroMQ context: \(error)")
        }
        defer { context.terminate() }

        let transport = plan.transport(forAddresses: addresses)
        let progress = StressProgress(threads: threads)
        let interval = 1e9 * Double(plan.clients) / plan.rate
        let start = MonotonicClock.nanoseconds() + 200_000_000  // time for every thread to connect
        let end = start + plan.durationNanoseconds
        var outcomes: [ThreadOutcome<StressThreadOutcome>] = []
        for index in 0..<threads {
            let threadPlan = StressThreadPlan(
                index: index, clients: Array(stride(from: index, to: plan.clients, by: threads)), context: context, cluster: plan.cluster,
                addresses: addresses, fixture: fixture, mix: plan.mix, seed: plan.seed, startNanoseconds: start, endNanoseconds: end,
                intervalNanoseconds: interval, clientCount: plan.clients, maxOutstanding: plan.maxOutstanding,
                timeoutNanoseconds: UInt64(plan.timeoutMilliseconds) * 1_000_000, tickNanoseconds: plan.tickNanoseconds, transport: transport,
                keyPrefix: plan.keyPrefix)
            outcomes.append(ThreadOutcome.spawn(named: "stress-load-\(index)") {
                StressThread(plan: threadPlan, progress: progress).run()
            })
        }

        func elapsedSeconds() -> Double {
            max(0, Double(Int64(MonotonicClock.nanoseconds()) - Int64(start)) / 1e9)
        }
        for outcome in outcomes {
            while !outcome.wait(seconds: 1) { report(progress.snapshot(elapsedSeconds: elapsedSeconds())) }
        }

        // Every thread published its last counts before it finished. The last snapshot carries
        // what came after the previous one (the last interval of a sample log).
        var last = progress.snapshot(elapsedSeconds: elapsedSeconds())
        last.isFinal = true
        report(last)

        var result = StressLoadResult()
        result.startNanoseconds = start
        result.transport = transport
        result.instances = [StressTally](repeating: StressTally(), count: plan.cluster.instances.count)
        result.tally = last.tally
        var perUseCase: [UseCaseName: StressUseCaseStats] = [:]
        for outcome in outcomes.map({ $0.result() }) {
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
        let order = StressWorkload.useCases(for: plan.mix)
        // The mix's use cases first, in its order; then the others in endpoint order.
        func rank(_ name: UseCaseName) -> (Int, Int) { (order.firstIndex(of: name) ?? .max, name.portOffset) }
        result.useCases = perUseCase.sorted { rank($0.key) < rank($1.key) }.map { ($0.key.rawValue, $0.value) }
        result.elapsedSeconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
        return result
    }
}

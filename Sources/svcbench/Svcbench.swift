import BenchmarkSupport
import ArgumentParser
import Foundation
import LoadEngine
import ServerProcesses
import Logging
import Persistence
import ServiceApp
import WireContract
import Synchronization
import ZeroMQ

/// `svcbench`: GetRestaurant on svcd against a raw libzmq ROUTER echo, both in this process, with
/// the same DEALER client and payload, in alternating runs. Prints round trips/s and latency
/// p50/p99 per in-flight setting, the service ÷ echo ratios and the goal check. With `--curve`,
/// instead what CURVE costs (``CurveBench``), against svcd child processes.
@main
struct Svcbench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svcbench",
        abstract: "Benchmark svcd's GetRestaurant against a raw libzmq ROUTER echo (alternating runs, one process).",
        discussion: """
            For each --in-flight setting, runs echo, service, echo, service, … for --rounds rounds; \
            each run is a fresh DEALER client thread that warms up, then measures for --seconds. \
            Goal: pipelined throughput ≥ 0.5 × echo and lockstep p50 ≤ 1.5 × echo (medians across rounds).
            With --curve: instead, the cost of CURVE encryption: the echo in plaintext and as a CURVE \
            server, and two svcd child processes (plaintext, and with --client-keys) asked GetRestaurant \
            and RegisterUser, alternating in one session; prints CURVE ÷ plaintext and svcd ÷ echo ratios.
            With --score-store: instead, CalculateRestaurantScore alone on a SQLite store prepared with \
            --score-reviews, --score-iterations times (a fixed amount of work for callgrind).
            """
    )

    @Option(name: .long, help: "Requests kept in flight, comma separated (1 = lockstep).")
    var inFlight: String = "1,64"

    @Option(name: .long, help: "Measured seconds per run.")
    var seconds: Double = 3

    @Option(name: .long, help: "Warm-up seconds per run before measuring.")
    var warmup: Double = 1

    @Option(name: .long, help: "Rounds of echo + service per in-flight setting.")
    var rounds: Int = 3

    @Option(name: .long, help: "The restaurantId parameter sent to GetRestaurant (and echoed).")
    var restaurantId: String = "r-000042"

    @Option(name: .long, help: "Instead of timed runs: send exactly this many requests to the service only, once per in-flight setting, without warm-up (a fixed amount of work, e.g. to count instructions under valgrind; the PostgreSQL store's periodic work is then paced at an hour, so it stays out of the count).")
    var requests: Int?

    @Option(name: .long, help: "Instead of any run: encode and decode this many GetRestaurant requests and replies on the main thread, without sockets or concurrency (for counting instructions under valgrind).")
    var wireIterations: Int?

    @Option(name: .long, help: "Instead of any run: a SQLite store file for CalculateRestaurantScore alone (see --score-reviews, --score-iterations).")
    var scoreStore: String?

    @Option(name: .long, help: "With --score-store: create that store (it must not exist) with one restaurant of this many recent reviews.")
    var scoreReviews: Int?

    @Option(name: .long, help: "With --score-store: calculate its restaurant's score this many times, one after the other (for counting instructions under valgrind).")
    var scoreIterations: Int?

    @Option(name: .long, help: "The in-process service's store: sqlite (a temporary directory, the service's default), memory, or postgres (see --database-url).")
    var store: String = "sqlite"

    @Option(name: .long, help: "With --store postgres: the database (postgres://user@host:port/db), seeded with the sample data unless it holds data already.")
    var databaseURL: String?

    @Option(name: .long, help: "With --requests: what each request asks, GetRestaurant or PlaceOrder (one item of a menu item added for the run, by a user registered for it).")
    var useCase: String = UseCaseName.getRestaurant.rawValue

    @Flag(name: .long, help: "Print a JSON summary to stdout (the table then goes to stderr).")
    var json = false

    @Option(name: .long, help: "The in-process service exports spans to this OTLP/HTTP collector (as svcd --otlp-endpoint), to measure what tracing costs.")
    var otlpEndpoint: String?

    @Option(name: .long, help: "With --otlp-endpoint: as svcd --trace-sampling.")
    var traceSampling: Double = 1

    @Flag(name: .long, help: "Measure what CURVE costs: echo plaintext/CURVE and svcd plaintext/CURVE (GetRestaurant, RegisterUser) in alternating runs; svcd runs as child processes (see --svcd).")
    var curve = false

    @Option(name: .long, help: "The svcd executable --curve starts (default: svcd next to this svcbench).")
    var svcd: String?

    /// What `--use-case` may name.
    static let countedUseCases: [UseCaseName] = [.getRestaurant, .placeOrder]

    /// The parsed `--in-flight` list.
    var inFlightSettings: [Int] {
        inFlight.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    func validate() throws {
        let parts = inFlight.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty, inFlightSettings.count == parts.count, inFlightSettings.allSatisfy({ (1...10_000).contains($0) }) else {
            throw ValidationError("--in-flight must be a comma-separated list of integers between 1 and 10000, e.g. 1,64")
        }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be above 0 and at most 3600") }
        guard warmup >= 0, warmup <= 3600 else { throw ValidationError("--warmup must be between 0 and 3600") }
        if let requests, requests < 1 { throw ValidationError("--requests must be at least 1") }
        guard let storeKind = ServiceConfiguration.StoreKind(rawValue: store) else {
            throw ValidationError("--store must be sqlite, memory or postgres")
        }
        if storeKind == .postgres {
            guard let databaseURL else { throw ValidationError("--store postgres needs --database-url") }
            do { _ = try PostgresURL(parsing: databaseURL) } catch { throw ValidationError("--database-url: \(error)") }
        } else if databaseURL != nil {
            throw ValidationError("--database-url is only for --store postgres")
        }
        guard let chosen = UseCaseName(rawValue: useCase), Self.countedUseCases.contains(chosen) else {
            throw ValidationError("--use-case must be one of \(Self.countedUseCases.map(\.rawValue).joined(separator: ", "))")
        }
        if chosen != .getRestaurant, requests == nil {
            throw ValidationError("--use-case \(useCase) needs --requests: the timed runs compare GetRestaurant with the echo")
        }
        if let wireIterations, wireIterations < 1 { throw ValidationError("--wire-iterations must be at least 1") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        if scoreStore != nil {
            guard (scoreReviews == nil) != (scoreIterations == nil) else {
                throw ValidationError("--score-store takes one of --score-reviews (prepare it) and --score-iterations (run on it)")
            }
            if let scoreReviews, scoreReviews < 0 { throw ValidationError("--score-reviews must be 0 or more") }
            if let scoreIterations, scoreIterations < 1 { throw ValidationError("--score-iterations must be at least 1") }
        } else if scoreReviews != nil || scoreIterations != nil {
            throw ValidationError("--score-reviews and --score-iterations need --score-store")
        }
        if curve {
            guard requests == nil, wireIterations == nil, !json else {
                throw ValidationError("--curve prints its own table; it takes none of --requests, --wire-iterations, --json")
            }
            guard FileManager.default.isExecutableFile(atPath: svcdExecutable) else {
                throw ValidationError("--curve needs svcd: \(svcdExecutable) is not an executable (swift build -c release --product svcd, or give --svcd PATH)")
            }
        } else if svcd != nil {
            throw ValidationError("--svcd is only for --curve")
        }
        guard !restaurantId.isEmpty, restaurantId.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
            throw ValidationError("--restaurant-id must be printable ASCII without quotes or backslashes")
        }
    }

    /// `--svcd`, else the svcd next to this executable.
    var svcdExecutable: String {
        svcd ?? SvcdProcess.pathNextToThisOne
    }

    /// Synchronous, so that `--wire-iterations` never starts Swift concurrency (valgrind cannot
    /// run it); the benchmark itself runs in a task while the main thread (not a pool thread)
    /// waits for it.
    func run() throws {
        if let wireIterations {
            let bytes = try WirePathBench.run(iterations: wireIterations, restaurantId: restaurantId)
            print("wire path: \(wireIterations) requests decoded and replies encoded, \(bytes) reply bytes")
            return
        }
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let command = self
        // .medium: the priority the async main had, so the service's tasks run on the same
        // (default-QoS) pool threads as before.
        Task(priority: .medium) {
            let result: Result<Void, any Error>
            do {
                try await command.benchmark()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }?.get()
    }

    /// The benchmark: starts the service, runs the echo and service rounds, prints the report.
    func benchmark() async throws {
        if let scoreStore {
            if let scoreReviews {
                try await ScoreBench.prepare(path: scoreStore, reviews: scoreReviews)
                print("score store: \(scoreStore), one restaurant with \(scoreReviews) recent reviews")
            } else if let scoreIterations {
                let score = try await ScoreBench.run(path: scoreStore, iterations: scoreIterations)
                print("score: \(scoreIterations) calculations, the last \(score.value)")
            }
            return
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        if curve {
            let bench = CurveBench(
                svcdExecutable: svcdExecutable, inFlightSettings: inFlightSettings, rounds: rounds,
                seconds: seconds, warmup: warmup, restaurantId: restaurantId
            )
            do {
                let report = try await bench.run()
                print(report.text, terminator: "")
            } catch {
                FileHandle.standardError.write(Data("svcbench: \(error)\n".utf8))
                throw ExitCode.failure
            }
            return
        }

        let dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("svcbench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
        var configuration = ServiceConfiguration()
        configuration.dataDirectory = dataDirectory
        configuration.portBase = 0
        configuration.seedSample = true
        configuration.store = ServiceConfiguration.StoreKind(rawValue: store) ?? .sqlite
        configuration.databaseURL = try databaseURL.map { try PostgresURL(parsing: $0) }
        configuration.tracing = otlpEndpoint.map { TracingConfiguration(endpoint: $0, samplingRatio: traceSampling) }
        if requests != nil {
            // A counted run: the PostgreSQL store's periodic work (the event numbering's look for
            // unnumbered events every 100 ms, the poll of the log's last number, the keep-alive)
            // grows with the run's wall time, which callgrind's slowdown and the machine's load
            // set, not with its requests; paced at an hour, it stays out of the count.
            configuration.adjustPostgresStore = {
                $0.eventIdleInterval = .seconds(3600)
                $0.eventPollInterval = .seconds(3600)
                $0.keepAliveInterval = .seconds(3600)
            }
        }
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }

        let service = try await buildService(configuration: configuration, logger: Logger(label: "svcd"))
        let serviceTask = Task { try await service.run() }
        var echo: EchoServer?
        var clientContext: ZMQContext?
        var failure: (any Error)?
        do {
            guard let serviceEndpoint = service.useCaseAddresses[.getRestaurant] else {
                throw BenchError("the service has no GetRestaurant endpoint")
            }
            let context = try ZMQContext(ioThreads: 1)
            clientContext = context
            if let requests {
                let client = LoadClient(context: context, warmupNanoseconds: 0, windowNanoseconds: 0, restaurantId: restaurantId)
                if UseCaseName(rawValue: useCase) == .placeOrder {
                    guard let endpoint = service.useCaseAddresses[.placeOrder] else { throw BenchError("the service has no PlaceOrder endpoint") }
                    guard let register = service.useCaseAddresses[.registerUser], let addItem = service.useCaseAddresses[.addMenuItem] else {
                        throw BenchError("the service has no RegisterUser or AddMenuItem endpoint")
                    }
                    // One user ordering one item of a menu item added for the run, so the counted
                    // requests find the same rows whatever the store held before.
                    let tag = UUID().uuidString.prefix(8).lowercased()
                    let fixtures = try await DedicatedThread.run(named: "svcbench-setup") {
                        try OrderFixtures.make(register: register, addItem: addItem, count: 1, tag: tag)
                    }
                    try await countedRuns(client: client, requests: requests, serviceEndpoint: endpoint, workload: .placeOrder(params: fixtures.orderParams[0]))
                } else {
                    try await countedRuns(client: client, requests: requests, serviceEndpoint: serviceEndpoint, workload: .getRestaurant)
                }
            } else {
                let echoServer = try await EchoServer.start()
                echo = echoServer
                let client = LoadClient(
                    context: context,
                    warmupNanoseconds: UInt64(warmup * 1e9),
                    windowNanoseconds: UInt64(seconds * 1e9),
                    restaurantId: restaurantId
                )
                let report = try await measure(client: client, echoEndpoint: echoServer.endpoint, serviceEndpoint: serviceEndpoint)
                if json {
                    FileHandle.standardError.write(Data(report.text.utf8))
                    FileHandle.standardOutput.write(Data(report.json))
                } else {
                    print(report.text, terminator: "")
                }
            }
        } catch {
            failure = error
        }

        // Clean stop: client sockets are already closed on their threads; the echo thread closes
        // its socket when its context shuts down; the service drains and terminates its context.
        await echo?.stop()
        clientContext?.terminate()
        await service.triggerGracefulShutdown()
        do {
            try await serviceTask.value
        } catch {
            failure = failure ?? error
        }
        if let failure {
            FileHandle.standardError.write(Data("svcbench: \(failure)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// `--requests`: one run of exactly `requests` requests against the service per in-flight
    /// setting, printed as one line each.
    private func countedRuns(client: LoadClient, requests: Int, serviceEndpoint: String, workload: LoadClient.Workload) async throws {
        for inFlight in inFlightSettings {
            let before = ThreadCPU.snapshot()
            let result = try await client.run(.service, endpoint: serviceEndpoint, inFlight: inFlight, round: 1, requests: requests, workload: workload)
            let after = ThreadCPU.snapshot()
            let spent = after.since(before)
            let total = after.processSince(before)
            let live = spent.reduce(0) { $0 + $1.nanoseconds }
            let perRequest = { (nanoseconds: UInt64) in String(format: "%.2f", Double(nanoseconds) / 1000 / Double(requests)) }
            print("service, \(inFlight) in flight: \(result.roundTrips) requests in \(String(format: "%.3f", Double(result.windowNanoseconds) / 1e9)) s, errors \(result.errors)")
            let voluntary = Double(after.contextSwitches.voluntary - before.contextSwitches.voluntary) / Double(requests)
            let involuntary = Double(after.contextSwitches.involuntary - before.contextSwitches.involuntary) / Double(requests)
            print("  process CPU µs per request: \(perRequest(total)) (getrusage); by thread name (schedstat):")
            print("    context switches per request: \(String(format: "%.2f", voluntary)) voluntary, \(String(format: "%.2f", involuntary)) involuntary")
            for thread in spent where thread.nanoseconds > 0 {
                print("    \(thread.name): \(perRequest(thread.nanoseconds))")
            }
            let client = total - min(live, total)
            let clientIO = spent.first { $0.name == "ZMQbg/IO/0 #2" }?.nanoseconds ?? 0
            print("    ended threads (the client): \(perRequest(client))")
            print("  service CPU µs per request (all but the client thread and its I/O thread): \(perRequest(total - min(total, client + clientIO)))")
        }
    }

    /// For each in-flight setting: echo, service, echo, service, … for `rounds` rounds.
    private func measure(client: LoadClient, echoEndpoint: String, serviceEndpoint: String) async throws -> Report {
        var settings: [Report.Setting] = []
        for inFlight in inFlightSettings {
            var runs: [RunResult] = []
            for round in 1...rounds {
                for target in BenchTarget.allCases {
                    let endpoint = target == .echo ? echoEndpoint : serviceEndpoint
                    let result = try await client.run(target, endpoint: endpoint, inFlight: inFlight, round: round)
                    FileHandle.standardError.write(Data((Report.runLine(result) + "\n").utf8))
                    runs.append(result)
                }
            }
            settings.append(Report.Setting(inFlight: inFlight, runs: runs))
        }
        let version = ZMQ.version
        return Report(
            settings: settings, seconds: seconds, warmup: warmup, rounds: rounds,
            libzmqVersion: "\(version.major).\(version.minor).\(version.patch)",
            cores: ProcessInfo.processInfo.activeProcessorCount,
            echoEndpoint: echoEndpoint, serviceEndpoint: serviceEndpoint,
            body: String(decoding: client.body(slot: 0), as: UTF8.self)
        )
    }
}

import Foundation
import ServiceApp
import SvcdTestSupport
import Synchronization
import Telemetry
import Testing
import Transport
import WireContract
import WireTestSupport
import ZeroMQ

/// One in-process service built by `buildService` on ephemeral loopback ports with its own
/// temporary data directory. `run()` is started in a task by ``startRunning()``; ``shutDown()``
/// triggers the graceful shutdown and waits (with a deadline) for `run()` to return.
final class ServiceHarness: Sendable {
    let service: RestaurantService
    let dataDirectory: String

    private let runTask = Mutex<Task<Void, Never>?>(nil)
    private let finished = Atomic<Bool>(false)
    private let runFailure = Mutex<String?>(nil)

    init(service: RestaurantService, dataDirectory: String) {
        self.service = service
        self.dataDirectory = dataDirectory
    }

    /// The bound address of a use case (`tcp://127.0.0.1:<ephemeral>`).
    func address(_ name: UseCaseName) throws -> String {
        try #require(service.useCaseAddresses[name], "no address for \(name.rawValue)")
    }

    /// The endpoint object of a use case (for its transport counters).
    func endpoint(_ name: UseCaseName) throws -> UseCaseEndpoint {
        try #require(service.endpoints.first { $0.name == name }, "no endpoint for \(name.rawValue)")
    }

    /// Whether `run()` has been started.
    var isRunning: Bool { runTask.withLock { $0 != nil } }

    /// Whether `run()` has returned.
    var hasFinished: Bool { finished.load(ordering: .acquiring) }

    /// Starts `service.run()` in a task (once).
    func startRunning() {
        runTask.withLock { task in
            guard task == nil else { return }
            task = Task { [self] in
                do {
                    try await service.run()
                } catch {
                    runFailure.withLock { $0 = "\(error)" }
                }
                finished.store(true, ordering: .releasing)
            }
        }
    }

    /// Triggers the graceful shutdown (starting `run()` first if it never started, so the
    /// sockets close and the context terminates) and waits up to `seconds` for `run()` to return.
    /// Returns the time `run()` took to return after the trigger, or `nil` if it did not return.
    @discardableResult
    func shutDown(within seconds: Double = 15) async -> Duration? {
        startRunning()
        let clock = ContinuousClock()
        let start = clock.now
        await service.triggerGracefulShutdown()
        let returned = await waitUntil(timeout: seconds) { self.hasFinished }
        if let failure = runFailure.withLock({ $0 }) {
            Issue.record("service.run() threw: \(failure)")
        }
        return returned ? clock.now - start : nil
    }
}

/// Builds a service on ephemeral ports in a fresh temporary data directory, runs `body` and
/// always shuts the service down (also when `body` throws), then removes the directory. A seeded
/// SQLite service starts from a copy of the process's ``SeededStoreTemplate``.
/// With `running: false` the endpoints are bound and reading requests but `run()` has not
/// started, so accepted requests stay in flight until the test calls `startRunning()`. The
/// queue-time target is 10 s (60 s with `running: false`: requests wait for `run()` on purpose)
/// unless `configure` sets it: a debug build on a shared machine must not turn the pipelines of
/// tests about other things into `overloaded` replies.
func withService<T>(
    seed: Bool = false,
    running: Bool = true,
    configure: (inout ServiceConfiguration) -> Void = { _ in },
    tracing: RequestTracing? = nil,
    _ body: (ServiceHarness) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("transporttests-\(UUID().uuidString)").path
    var configuration = ServiceConfiguration()
    configuration.dataDirectory = directory
    configuration.portBase = 0
    configuration.host = "127.0.0.1"
    configuration.seedSample = seed
    configuration.queueTimeTarget = running ? .seconds(10) : .seconds(60)
    configure(&configuration)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // The sample store made once per test process, not seeded again here (SampleSeedingTests
    // proves the seeding itself).
    if seed, configuration.store == .sqlite { try await SeededStoreTemplate.copy(into: configuration.dataDirectory) }

    let service = try await buildService(configuration: configuration, tracing: tracing)
    let harness = ServiceHarness(service: service, dataDirectory: directory)
    if running { harness.startRunning() }
    let result: T
    do {
        result = try await body(harness)
    } catch {
        if await harness.shutDown() == nil {
            Issue.record("service.run() did not return within 15 s of the graceful shutdown")
        }
        throw error
    }
    if await harness.shutDown() == nil {
        Issue.record("service.run() did not return within 15 s of the graceful shutdown")
    }
    return result
}

/// ``withService(seed:running:configure:_:)`` with CURVE use-case endpoints (`--client-keys`)
/// that list one fresh client key pair: `body` gets the harness and what a client needs to
/// connect with that pair.
func withCurveService<T>(seed: Bool = true, _ body: (ServiceHarness, CurveClient) async throws -> T) async throws -> T {
    let keys = try ZMQCurveKeyPair.generate()
    let keysFile = FileManager.default.temporaryDirectory.appendingPathComponent("client-keys-\(UUID().uuidString)").path
    try "\(keys.publicKey)\n".write(toFile: keysFile, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: keysFile) }
    return try await withService(seed: seed, configure: { $0.clientKeysPath = keysFile }) { harness in
        let serverKey = try #require(try EndpointsFile.read(from: harness.dataDirectory).useCaseServerKey)
        return try await body(harness, CurveClient(serverKey: serverKey, keys: keys))
    }
}

/// Polls `condition` every few milliseconds until it holds or `timeout` seconds pass.
func waitUntil(timeout seconds: Double, interval: Duration = .milliseconds(5), _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
    while true {
        if condition() { return true }
        if clock.now >= deadline { return false }
        try? await Task.sleep(for: interval)
    }
}

/// The seeded sample service shared by one suite: started once before the suite's tests,
/// stopped after them. Tests read it with `try SeededService.harness()`.
struct SeededService: SuiteTrait, TestScoping {
    @TaskLocal static var current: ServiceHarness?

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withService(seed: true) { harness in
            try await SeededService.$current.withValue(harness) {
                try await function()
            }
        }
    }

    /// The shared seeded service of the enclosing suite.
    static func harness() throws -> ServiceHarness {
        try #require(current, "the test must run inside a suite with the .seededService trait")
    }
}

extension Trait where Self == SeededService {
    /// Runs the suite against one shared service loaded with the deterministic sample data.
    static var seededService: Self { SeededService() }
}

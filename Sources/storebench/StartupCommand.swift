import ArgumentParser
import BenchmarkSupport
import ChildProcess
import Domain
import Foundation
import LoadEngine
import Persistence
import ServerProcesses
import WireContract
import WireJSON

/// svcd's start-up on a large store: time to ready, memory, and the latency of the queries
/// that must not scan whole tables.
struct StartupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup",
        abstract: "Build a large store (if the data dir has none), start svcd on it, measure time to ready, RSS and query latency.",
        discussion: """
            The store is built through the SQLite repositories (the service's own write path, group \
            commit included), so every row is what the service would have written. svcd is started \
            as a child process (--svcd, default: next to this executable) with --port-base 0; ready \
            means endpoints.json names its pid.
            """
    )

    @Option(name: .long, help: "Data directory; the store is built there when it has none (default: a temporary directory, removed afterwards).")
    var dataDir: String?

    @Option(name: .long, help: "Restaurants to create.")
    var restaurants: Int = 100_000

    @Option(name: .long, help: "Reviews to create, spread over the restaurants.")
    var reviews: Int = 1_000_000

    @Option(name: .long, help: "Users to create (the reviews' authors).")
    var users: Int = 10_000

    @Option(name: .long, help: "The svcd executable.")
    var svcd: String?

    @Option(name: .long, help: "Start-ups to measure (0: only build the store).")
    var starts: Int = 3

    func validate() throws {
        guard restaurants >= 1, reviews >= 0, users >= 1 else { throw ValidationError("--restaurants and --users must be at least 1, --reviews at least 0") }
        guard starts >= 0 else { throw ValidationError("--starts must be at least 0") }
    }

    func run() async throws {
        let temporary = dataDir == nil
        let directory = dataDir ?? FileManager.default.temporaryDirectory.appendingPathComponent("storebench-startup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { if temporary { try? FileManager.default.removeItem(atPath: directory) } }
        let storePath = directory + "/store.sqlite"

        if !FileManager.default.fileExists(atPath: storePath) {
            let started = ContinuousClock.now
            try await LargeStore(restaurants: restaurants, reviews: reviews, users: users).build(at: storePath) { line in
                print(line)
            }
            print("built the store in \(ContinuousClock.now - started)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: storePath)[.size] as? Int) ?? 0
        print("store \(storePath): \(format(Double(size) / 1_048_576)) MiB")

        let executable = try SvcdInstance.executable(svcd)
        for start in stride(from: 1, through: starts, by: 1) {
            try await measureStart(start, executable: executable, directory: directory)
        }
    }

    private func measureStart(_ start: Int, executable: String, directory: String) async throws {
        let launched = ContinuousClock.now
        let logPath = directory + "/svcd-start-\(start).log"
        try? FileManager.default.removeItem(atPath: logPath)
        let child = try SvcdProcess.spawn(
            executable: executable, dataDirectory: directory, arguments: ["--log-level", "warning"], logPath: logPath
        )
        let process = child.process
        defer { process.send(signal: SIGTERM) }
        let endpoints = try await child.waitUntilServing(timeout: .seconds(300), interval: .milliseconds(5)).useCases
        let ready = ContinuousClock.now - launched
        let readyRSS = residentMebibytes(pid: process.pid)
        print("")
        print("start \(start): ready after \(ready), RSS \(format(readyRSS)) MiB")

        // Each row: the use case, what the probe is (after the use case's name), its params.
        let probes: [(UseCaseName, String, String)] = [
            (.getRestaurant, "", #"{"\#(WireMember.restaurantId.name)":"r-050000"}"#),
            (.listRestaurants, "first page", #"{"\#(WireMember.limit.name)":50}"#),
            (.listRestaurants, "cuisine + minRating", #"{"\#(WireMember.cuisine.name)":"thai","\#(WireMember.minRating.name)":4,"\#(WireMember.limit.name)":50}"#),
            (.searchRestaurants, "'golden' (trigram index)", #"{"\#(WireMember.query.name)":"golden","\#(WireMember.limit.name)":50}"#),
            (.searchRestaurants, "'zz' (no match, 2 chars)", #"{"\#(WireMember.query.name)":"zz","\#(WireMember.limit.name)":50}"#),
            (.getReviews, "of a restaurant", #"{"\#(WireMember.restaurantId.name)":"r-000007","\#(WireMember.limit.name)":50}"#),
            (.calculateRestaurantScore, "", #"{"\#(WireMember.restaurantId.name)":"r-000007"}"#),
            (.loadFeed, "", #"{"\#(WireMember.limit.name)":50}"#),
            (.getUserProfile, "", #"{"\#(WireMember.userId.name)":"u-000001"}"#),
        ]
        print(pad("query", 46) + pad("p50 µs", 10) + pad("max µs", 10) + "result")
        for (useCase, detail, params) in probes {
            let label = detail.isEmpty ? useCase.rawValue : "\(useCase.rawValue) \(detail)"
            guard let address = endpoints[useCase] else { throw BenchFailure("\(EndpointsFile.fileName) lacks \(useCase.rawValue)") }
            let (micros, summary) = try await onThread { try Self.probe(address: address, params: params, times: 21) }
            print(pad(label, 46) + pad(String(format: "%.0f", percentile(micros, 50)), 10) + pad(String(format: "%.0f", micros.max() ?? 0), 10) + summary)
        }
        print("RSS after the queries: \(format(residentMebibytes(pid: process.pid))) MiB")
        let stopping = ContinuousClock.now
        let stopped = await process.stop(patience: .seconds(120))
        guard !stopped.killed, let ending = stopped.ending else {
            throw BenchFailure("svcd \(process.pid) did not stop within 120 s of SIGTERM; killed")
        }
        switch ending {
        case .exited(let status): print("SIGTERM → exit \(status) after \(ContinuousClock.now - stopping)")
        case .signalled(let signal): print("SIGTERM → ended by signal \(signal) after \(ContinuousClock.now - stopping)")
        }
        // svcd logs at warning level here: anything it wrote is worth seeing.
        let warnings = child.logTail(lines: 20)
        if !warnings.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { print("svcd's log (\(logPath)):\n\(warnings)") }
    }

    /// `times` lockstep calls on one REQ socket; latencies in µs and a summary of the last reply.
    private static func probe(address: String, params: String, times: Int) throws -> ([Double], String) {
        let caller = try LockstepCaller(address: address, timeoutMilliseconds: 30_000)
        defer { caller.close() }
        var micros: [Double] = []
        var summary = ""
        for _ in 0..<times {
            let sent = MonotonicClock.nanoseconds()
            guard let body = try caller.call(WireEnvelope.requestBytes(id: "probe", paramsJSON: params))?.last else { throw BenchFailure("no reply from \(address)") }
            micros.append(Double(MonotonicClock.nanoseconds() - sent) / 1000)
            let reply = try JSONParser.parse(body)
            if !reply.replySucceeded {
                summary = "error \(reply.replyErrorCode ?? "?")"
            } else if let result = reply.replyResult?.objectValue, let first = result.first {
                summary = first.value.arrayValue.map { "\($0.count) \(first.key)" } ?? "ok"
            }
        }
        return (micros, summary)
    }

    private func residentMebibytes(pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kibibytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kibibytes / 1024
    }
}

import Foundation
import SvcdTestSupport
import Testing

/// Regression guards that cannot be flaky: instructions per request counted by callgrind, which
/// do not depend on the machine's load, against a budget of the figure measured when it was set
/// plus a margin. Wall-clock time never goes in a test; the benchmarks measure that.
///
/// Each figure is the difference of two runs of `svcbench` under callgrind (`small` and `large`
/// requests) divided by the difference in requests, so start-up and shutdown cancel out.
/// `--toggle-collect` counts only inside one function (inclusive, on every thread):
/// - the wire path: `WirePathBench.run` — decode a GetRestaurant request, read its params,
///   encode the reply (`svcbench --wire-iterations N`, no sockets or concurrency);
/// - one request through the endpoint: `SocketLoop.run` — the GetRestaurant socket thread's
///   whole loop (wake-up, receive, the host actor, the use case, the in-memory repository,
///   encoding, statistics, send) while `svcbench --requests N --in-flight 1 --store memory`
///   drives the in-process service over TCP. One request in flight, because with more the
///   loop's batches depend on thread timing: at 64 in flight the figure rose 14 % with the
///   machine busy; at 1 it moves by under 2 % busy or not;
/// - a restaurant's score: everything, on every thread, while `svcbench --score-iterations N`
///   calculates the score of the one restaurant of a prepared SQLite store, once with 10 recent
///   reviews and once with 100,000; the budget is the quiet one's figure × 1.2.
///
/// The budgets depend on the build: the suite runs in debug (`swift test`), where Swift code
/// costs several times what it does optimised. When a change makes a figure go down for good,
/// lower its budget to the new figure plus the margin; when it goes up, the test names the
/// figure, and Docs/BENCHMARKS.md ("Instruction budgets") says how to look for the cause.
@Suite("Instruction budgets (callgrind)", .serialized)
struct InstructionBudgetTests {
    /// Instructions per request when the budgets were last set (2026-12-07; each lowering is in
    /// git log) and the margin above them a figure may reach. Measured repeatedly, quiet and
    /// with three CPU-bound processes beside it, the endpoint figure moved by under 2 % (debug;
    /// release under 3 %) and the wire path not at all.
    #if DEBUG
    static let wirePathMeasured = 42_250.0
    static let endpointMeasured = 153_000.0
    #else
    static let wirePathMeasured = 5_550.0
    static let endpointMeasured = 32_300.0
    #endif
    static let margin = 1.10

    @Test func theWirePathStaysWithinItsInstructionBudget() async throws {
        let perRequest = try await Self.instructionsPerRequest(
            counting: "*WirePathBench*run*", small: 200, large: 1_200
        ) { ["--wire-iterations", "\($0)"] }
        Self.expect(perRequest, withinBudgetOf: Self.wirePathMeasured, "wire path")
    }

    @Test func oneRequestThroughTheEndpointStaysWithinItsInstructionBudget() async throws {
        let perRequest = try await Self.instructionsPerRequest(
            counting: "*SocketLoopC3run*", small: 300, large: 1_300
        ) { ["--requests", "\($0)", "--in-flight", "1", "--store", "memory"] }
        Self.expect(perRequest, withinBudgetOf: Self.endpointMeasured, "endpoint")
    }

    /// The score of a restaurant with 100,000 recent reviews costs what one with 10 costs: the
    /// formula uses at most 20 recent reviews, so the count stops there (issue: a popular
    /// restaurant's score took 12× a quiet one's and stalled every read behind it). Counted on
    /// every thread (the query runs on the store's read threads), one score at a time.
    @Test func aPopularRestaurantsScoreCostsAtMostAFifthMoreThanAQuietOnes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("score-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var perScore: [Int: Double] = [:]
        for reviews in [10, 100_000] {
            let store = directory.appendingPathComponent("score-\(reviews).sqlite").path
            // Prepared natively: the 100,000 inserts under callgrind would take longer than the scores.
            let prepare = try await runTool(
                try ExecutableLocator.path(of: "svcbench", variable: "SVCBENCH_PATH"), ["--score-store", store, "--score-reviews", "\(reviews)"], timeout: 120
            )
            try #require(prepare.status == 0, "svcbench --score-reviews failed: \(prepare.stderr)")
            perScore[reviews] = try await Self.instructionsPerRequest(counting: nil, small: 30, large: 130) {
                ["--score-store", store, "--score-iterations", "\($0)"]
            }
        }
        let quiet = try #require(perScore[10]), popular = try #require(perScore[100_000])
        #expect(popular <= quiet * 1.2, "score: \(Int(popular)) instructions with 100,000 reviews, \(Int(quiet)) with 10")
        // A figure far below a use case's cost means the count missed the work.
        #expect(quiet >= Self.endpointMeasured / 10, "score: only \(Int(quiet)) instructions per score counted")
        print("score instructions: \(Int(quiet)) with 10 reviews, \(Int(popular)) with 100,000 (\(String(format: "%.3f", popular / quiet))×)")
    }

    /// Prints `perRequest` and checks it against `measured` × `margin`; a figure below a third of
    /// `measured` fails too, as it means the count missed the work (a renamed function).
    static func expect(
        _ perRequest: Double, withinBudgetOf measured: Double, margin: Double = InstructionBudgetTests.margin, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let budget = measured * margin
        print("\(what): \(Int(perRequest)) instructions per request")
        #expect(perRequest <= budget, "\(what): \(Int(perRequest)) instructions per request; budget \(Int(budget))", sourceLocation: sourceLocation)
        #expect(perRequest >= measured / 3, "\(what): only \(Int(perRequest)) instructions per request counted", sourceLocation: sourceLocation)
    }

    /// Runs svcbench under callgrind with `arguments(small)` and `arguments(large)`, counting
    /// only inside functions matching `pattern` (`nil`: everything, on every thread); returns
    /// the instructions per request.
    static func instructionsPerRequest(
        counting pattern: String?, small: Int, large: Int, arguments: (Int) -> [String]
    ) async throws -> Double {
        let valgrind = try Self.tool("valgrind")
        let objcopy = try Self.tool("objcopy")
        let files = FileManager.default
        let directory = files.temporaryDirectory.appendingPathComponent("instruction-budget-\(UUID().uuidString)")
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: directory) }

        // valgrind 3.19 gives up on the DWARF 5 debug info Swift 6 writes; the symbol table it
        // needs for --toggle-collect stays in the stripped copy.
        let svcbench = directory.appendingPathComponent("svcbench").path
        let strip = try await runTool(objcopy, ["--strip-debug", try ExecutableLocator.path(of: "svcbench", variable: "SVCBENCH_PATH"), svcbench], timeout: 120)
        try #require(strip.status == 0, "objcopy failed: \(strip.stderr)")

        var totals: [Int: Double] = [:]
        for count in [small, large] {
            let output = directory.appendingPathComponent("callgrind.\(count)").path
            let run = try await runTool(
                valgrind, ["--tool=callgrind", "--callgrind-out-file=\(output)"] + (pattern.map { ["--toggle-collect=\($0)"] } ?? []) + [svcbench] + arguments(count),
                timeout: 600
            )
            try #require(run.status == 0, "svcbench under callgrind exited with \(run.status.map(String.init) ?? "a timeout"): \(run.stderr.suffix(2_000))")
            totals[count] = try Self.summary(of: output)
        }
        return (totals[large]! - totals[small]!) / Double(large - small)
    }

    /// The `summary:` line of a callgrind output file: instructions counted in total.
    static func summary(of path: String) throws -> Double {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") }),
            let value = Double(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces))
        else {
            throw BudgetFailure("no summary line in \(path)")
        }
        return value
    }

    /// The tool's path from PATH; Deploy/install-dependencies.sh installs both.
    static func tool(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BudgetFailure("\(name) is not installed; run Deploy/install-dependencies.sh")
    }

    struct BudgetFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

import Foundation
import ServerProcesses

/// One pgbench run of a script against the benchmark's server, with the CPU spent meanwhile: the
/// server's processes and pgbench itself.
struct PgbenchRun {
    let executable: String
    let server: PostgresDevServer
    /// pgbench's arguments choosing the script (``PgbenchScript/arguments(customScript:)``).
    let scriptArguments: [String]
    let clients: Int
    let jobs: Int
    /// `simple`, `extended` or `prepared` (pgbench's `-M`).
    let mode: String

    /// What a run did.
    struct Outcome {
        /// pgbench's `tps = … (without initial connection time)`.
        var transactionsPerSecond: Double
        /// `number of transactions actually processed`.
        var transactions: Int
        /// `number of failed transactions` (0 when pgbench does not print it).
        var failed: Int
        /// `latency average`, ms.
        var latencyAverageMillis: Double
        /// CPU from just before pgbench started to just after it exited (its own CPU is
        /// ``CPUUsage/reapedChildrenSeconds``).
        var usage: CPUUsage
    }

    /// Runs pgbench for `seconds` (`-T`), reading the CPU counters with `snapshot` before and after.
    func run(seconds: Int, snapshot: () -> CPUSnapshot, started: @escaping @Sendable (Int32) -> Void) async throws -> Outcome {
        let arguments = [
            "-c", "\(clients)", "-j", "\(jobs)", "-T", "\(seconds)", "-M", mode,
        ] + scriptArguments + [
            "-h", server.host, "-p", String(server.port), "-U", server.user, server.database,
        ]
        let before = snapshot()
        let output = try await ChildTool.run(executable, arguments, timeout: .seconds(seconds + 120), started: started)
        let after = snapshot()
        _ = try output.succeeded("pgbench \(arguments.joined(separator: " "))")
        let text = output.stdout
        guard let tps = Self.number(after: "tps = ", in: text), let transactions = Self.number(after: "number of transactions actually processed: ", in: text) else {
            throw BenchFailure("pgbench printed no tps:\n\(text)\n\(output.stderr)")
        }
        return Outcome(
            transactionsPerSecond: tps, transactions: Int(transactions),
            failed: Int(Self.number(after: "number of failed transactions: ", in: text) ?? 0),
            latencyAverageMillis: Self.number(after: "latency average = ", in: text) ?? 0,
            usage: after.since(before)
        )
    }

    /// The number right after `label` on the first line holding it.
    private static func number(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return Double(digits)
    }
}

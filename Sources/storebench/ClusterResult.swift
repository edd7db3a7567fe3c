import Foundation

/// One measured run of the cluster benchmark: pgbench, or one workload through some svcd
/// instances.
struct ClusterResult {
    let round: Int
    /// `pgbench`, or `N svcd`.
    let target: String
    /// `INSERT` for pgbench, else the use case.
    let workload: String
    /// Rows (or reads) per second.
    let perSecond: Double
    /// Requests (transactions) the CPU is divided by.
    let requests: Int
    /// Latency text: `p50/p99` ms for the service, `avg` for pgbench.
    let latency: String
    /// Errors and failed transactions.
    let errors: String
    let usage: CPUUsage
    /// CPU of the client (the load threads of this process, or pgbench).
    let clientSeconds: Double

    /// `seconds` of CPU per request, in µs.
    func microsPerRequest(_ seconds: Double) -> Double {
        requests > 0 ? seconds * 1e6 / Double(requests) : 0
    }

    var svcdMicros: Double { microsPerRequest(usage.svcdSeconds) }
    var postgresMicros: Double { microsPerRequest(usage.postgresSeconds) }
    var clientMicros: Double { microsPerRequest(clientSeconds) }
    /// Cores the benchmark's own processes (svcd, PostgreSQL, client) kept busy.
    var benchCores: Double { usage.wallSeconds > 0 ? (usage.svcdSeconds + usage.postgresSeconds + clientSeconds) / usage.wallSeconds : 0 }
    /// Cores busy on the whole machine.
    var machineCores: Double { usage.wallSeconds > 0 ? usage.machineBusySeconds / usage.wallSeconds : 0 }

    /// The table's header.
    static let header = pad("round", 6) + pad("target", 9) + pad("workload", 14) + pad("per second", 12) + pad("latency ms", 17) + pad("errors", 8)
        + pad("svcd µs/req", 12) + pad("pg µs/req", 10) + pad("client µs/req", 14) + "cores bench/machine"

    /// The run as a table row.
    var row: String {
        pad("\(round)", 6) + pad(target, 9) + pad(workload, 14) + pad(format(perSecond), 12) + pad(latency, 17) + pad(errors, 8)
            + pad(String(format: "%.1f", svcdMicros), 12) + pad(String(format: "%.1f", postgresMicros), 10) + pad(String(format: "%.1f", clientMicros), 14)
            + String(format: "%.2f/%.2f", benchCores, machineCores)
    }
}

import Foundation

/// The table of `svcbench --curve`: every run, the medians per target across rounds, and the
/// ratios of medians: CURVE ÷ plaintext per server, and svcd ÷ echo with the same security
/// (svcd CURVE ÷ echo CURVE is the honest limit for encrypted traffic).
struct CurveReport {
    /// The runs of one in-flight setting.
    struct Setting {
        let inFlight: Int
        let runs: [CurveBench.Run]

        func median(_ target: CurveBench.Target) -> (throughput: Double, p50: Double, p99: Double, errors: Int) {
            let runs = runs.filter { $0.target == target }.map(\.result)
            return (
                Report.median(runs.map(\.throughput)), Report.median(runs.map(\.p50Microseconds)),
                Report.median(runs.map(\.p99Microseconds)), runs.reduce(0) { $0 + $1.errors }
            )
        }

        /// Median of `numerator` ÷ median of `denominator`, for throughput and p50.
        func ratio(_ numerator: CurveBench.Target, _ denominator: CurveBench.Target) -> (throughput: Double, p50: Double) {
            let top = median(numerator)
            let bottom = median(denominator)
            return (top.throughput / bottom.throughput, top.p50 / bottom.p50)
        }

        /// CURVE ÷ plaintext of the same server in the same round, for a CURVE run.
        func pairedRatio(_ run: CurveBench.Run) -> (throughput: Double, p50: Double)? {
            guard run.target.curve,
                  let plain = runs.first(where: { $0.target == CurveBench.Target(server: run.target.server, curve: false) && $0.result.round == run.result.round })
            else { return nil }
            return (run.result.throughput / plain.result.throughput, run.result.p50Microseconds / plain.result.p50Microseconds)
        }
    }

    let settings: [Setting]
    let seconds: Double
    let warmup: Double
    let rounds: Int
    let libzmqVersion: String
    let cores: Int
    let getRestaurantBody: String
    let registerUserBody: String

    /// One progress line per run.
    static func runLine(_ run: CurveBench.Run) -> String {
        let result = run.result
        return "in-flight \(Report.pad(result.inFlight, 3)) round \(result.round) \(Report.pad(run.target.label, -23)) "
            + "\(Report.pad(Report.grouped(result.throughput), 9)) rt/s  p50 \(Report.pad(Report.micros(result.p50Microseconds), 8)) µs  "
            + "p99 \(Report.pad(Report.micros(result.p99Microseconds), 8)) µs  errors \(result.errors)"
    }

    var text: String {
        typealias Target = CurveBench.Target
        var lines: [String] = []
        lines.append("svcbench --curve: CURVE vs plaintext on svcd (two child processes) and on the raw libzmq ROUTER echo, same DEALER client")
        lines.append("libzmq \(libzmqVersion), \(cores) cores, warm-up \(Report.seconds(warmup)) s + \(Report.seconds(seconds)) s per run, \(rounds) rounds; per round and server plaintext then CURVE (CURVE first in even rounds)")
        lines.append("GetRestaurant and echo body \(getRestaurantBody)")
        lines.append("RegisterUser body e.g. \(registerUserBody) (a new e-mail per request)")
        lines.append("")
        lines.append("Per run (ratio columns: CURVE ÷ plaintext of the same server and round)")
        lines.append("in-flight  round  target                   round trips/s    p50 µs    p99 µs  errors   rt/s ratio  p50 ratio")
        for setting in settings {
            for run in setting.runs {
                let result = run.result
                var line = "\(Report.pad(setting.inFlight, 9))  \(Report.pad(result.round, 5))  \(Report.pad(run.target.label, -23))  "
                    + Report.measures(throughput: result.throughput, p50: result.p50Microseconds, p99: result.p99Microseconds, errors: result.errors)
                if let paired = setting.pairedRatio(run) {
                    line += "  \(Report.pad(Report.ratio(paired.throughput), 11))  \(Report.pad(Report.ratio(paired.p50), 9))"
                }
                lines.append(line)
            }
        }
        lines.append("")
        lines.append("Median across rounds")
        lines.append("in-flight  target                   round trips/s    p50 µs    p99 µs  errors")
        for setting in settings {
            for target in Target.all {
                let median = setting.median(target)
                lines.append("\(Report.pad(setting.inFlight, 9))  \(Report.pad(target.label, -23))  "
                    + Report.measures(throughput: median.throughput, p50: median.p50, p99: median.p99, errors: median.errors))
            }
        }
        lines.append("")
        lines.append("Ratios of the medians")
        lines.append("in-flight  ratio                                            rt/s     p50")
        for setting in settings {
            var rows: [(String, (throughput: Double, p50: Double))] = []
            for server in Target.Server.allCases {
                rows.append(("\(server.name) CURVE ÷ plaintext", setting.ratio(Target(server: server, curve: true), Target(server: server, curve: false))))
            }
            for server in [Target.Server.getRestaurant, .registerUser] {
                for curve in [true, false] {
                    let security = curve ? "CURVE" : "plaintext"
                    rows.append((
                        "\(server.name) \(security) ÷ echo \(security)",
                        setting.ratio(Target(server: server, curve: curve), Target(server: .echo, curve: curve))
                    ))
                }
            }
            for (name, ratio) in rows {
                lines.append("\(Report.pad(setting.inFlight, 9))  \(Report.pad(name, -45))  \(Report.pad(Report.ratio(ratio.throughput), 7))  \(Report.pad(Report.ratio(ratio.p50), 6))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

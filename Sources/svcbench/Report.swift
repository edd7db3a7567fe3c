import Foundation
import WireJSON

/// Turns the runs into the readable table, the JSON summary and the goal check.
///
/// Medians are taken per target across rounds; ratios are service median ÷ echo median
/// (throughput: higher is better for the service; latency: lower is better). Per round the
/// paired ratio (service run ÷ the echo run just before it) is shown too.
struct Report {
    /// The goal of the issue: pipelined throughput ≥ 0.5 × echo, lockstep p50 ≤ 1.5 × echo.
    static let minimumPipelinedThroughputRatio = 0.5
    static let maximumLockstepP50Ratio = 1.5

    struct Medians {
        let throughput: Double
        let p50Microseconds: Double
        let p99Microseconds: Double
        let errors: Int
    }

    struct Ratios {
        let throughput: Double
        let p50: Double
        let p99: Double
    }

    struct Setting {
        let inFlight: Int
        let runs: [RunResult]

        func runs(of target: BenchTarget) -> [RunResult] {
            runs.filter { $0.target == target }
        }

        func medians(of target: BenchTarget) -> Medians {
            let runs = runs(of: target)
            return Medians(
                throughput: Report.median(runs.map(\.throughput)),
                p50Microseconds: Report.median(runs.map(\.p50Microseconds)),
                p99Microseconds: Report.median(runs.map(\.p99Microseconds)),
                errors: runs.reduce(0) { $0 + $1.errors }
            )
        }

        var ratios: Ratios {
            let echo = medians(of: .echo)
            let service = medians(of: .service)
            return Ratios(
                throughput: service.throughput / echo.throughput,
                p50: service.p50Microseconds / echo.p50Microseconds,
                p99: service.p99Microseconds / echo.p99Microseconds
            )
        }

        /// Service ÷ echo for one round.
        func pairedRatios(round: Int) -> Ratios? {
            guard let echo = runs.first(where: { $0.target == .echo && $0.round == round }),
                  let service = runs.first(where: { $0.target == .service && $0.round == round }) else { return nil }
            return Ratios(
                throughput: service.throughput / echo.throughput,
                p50: service.p50Microseconds / echo.p50Microseconds,
                p99: service.p99Microseconds / echo.p99Microseconds
            )
        }
    }

    struct Goal {
        /// Median throughput ratio at the largest in-flight setting above 1, if measured.
        let pipelined: (inFlight: Int, throughputRatio: Double)?
        /// Median p50 ratio at 1 in flight, if measured.
        let lockstepP50Ratio: Double?

        var throughputMet: Bool? { pipelined.map { $0.throughputRatio >= Report.minimumPipelinedThroughputRatio } }
        var latencyMet: Bool? { lockstepP50Ratio.map { $0 <= Report.maximumLockstepP50Ratio } }
        /// `nil` when a needed setting was not measured.
        var met: Bool? {
            guard let throughputMet, let latencyMet else { return nil }
            return throughputMet && latencyMet
        }
    }

    let settings: [Setting]
    let seconds: Double
    let warmup: Double
    let rounds: Int
    let libzmqVersion: String
    let cores: Int
    let echoEndpoint: String
    let serviceEndpoint: String
    /// The request body of slot 0 (other slots differ only in the id).
    let body: String

    var goal: Goal {
        let pipelined = settings.filter { $0.inFlight > 1 }.max { $0.inFlight < $1.inFlight }
        let lockstep = settings.first { $0.inFlight == 1 }
        return Goal(
            pipelined: pipelined.map { ($0.inFlight, $0.ratios.throughput) },
            lockstepP50Ratio: lockstep?.ratios.p50
        )
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    // MARK: Text

    static func runLine(_ run: RunResult) -> String {
        "in-flight \(pad(run.inFlight, 3)) round \(run.round) \(pad(run.target.rawValue, -7)) "
            + "\(pad(grouped(run.throughput), 9)) rt/s  p50 \(pad(micros(run.p50Microseconds), 8)) µs  "
            + "p99 \(pad(micros(run.p99Microseconds), 8)) µs  errors \(run.errors)"
    }

    var text: String {
        var lines: [String] = []
        lines.append("svcbench: GetRestaurant on svcd vs a raw libzmq ROUTER echo, same DEALER client and payload")
        lines.append("libzmq \(libzmqVersion), \(cores) cores, warm-up \(Self.seconds(warmup)) s + \(Self.seconds(seconds)) s per run, \(rounds) rounds alternating echo/service")
        lines.append("echo \(echoEndpoint), service GetRestaurant \(serviceEndpoint)")
        lines.append("body \(body) (id = slot number)")
        lines.append("")
        lines.append("Per run (ratio columns: service ÷ the echo run of the same round)")
        lines.append("in-flight  round  target    round trips/s    p50 µs    p99 µs  errors   rt/s ratio  p50 ratio  p99 ratio")
        for setting in settings {
            for run in setting.runs {
                var line = "\(Self.pad(run.inFlight, 9))  \(Self.pad(run.round, 5))  \(Self.pad(run.target.rawValue, -7))  "
                    + Self.measures(throughput: run.throughput, p50: run.p50Microseconds, p99: run.p99Microseconds, errors: run.errors, throughputWidth: 15)
                if run.target == .service, let ratios = setting.pairedRatios(round: run.round) {
                    line += "  \(Self.pad(Self.ratio(ratios.throughput), 11))  \(Self.pad(Self.ratio(ratios.p50), 9))  \(Self.pad(Self.ratio(ratios.p99), 9))"
                }
                lines.append(line)
            }
        }
        lines.append("")
        lines.append("Median across rounds")
        lines.append("in-flight  target          round trips/s    p50 µs    p99 µs  errors")
        for setting in settings {
            for target in BenchTarget.allCases {
                let medians = setting.medians(of: target)
                lines.append("\(Self.pad(setting.inFlight, 9))  \(Self.pad(target.rawValue, -14))  "
                    + Self.measures(throughput: medians.throughput, p50: medians.p50Microseconds, p99: medians.p99Microseconds, errors: medians.errors))
            }
            let ratios = setting.ratios
            lines.append("\(Self.pad(setting.inFlight, 9))  \(Self.pad("service/echo", -14))  \(Self.pad(Self.ratio(ratios.throughput), 13))  "
                + "\(Self.pad(Self.ratio(ratios.p50), 8))  \(Self.pad(Self.ratio(ratios.p99), 8))")
        }
        lines.append("")
        lines.append(goalText)
        return lines.joined(separator: "\n") + "\n"
    }

    var goalText: String {
        let goal = goal
        var parts: [String] = []
        if let pipelined = goal.pipelined {
            parts.append("pipelined (\(pipelined.inFlight) in flight) throughput ratio \(Self.preciseRatio(pipelined.throughputRatio)) "
                + "\(pipelined.throughputRatio >= Self.minimumPipelinedThroughputRatio ? "≥" : "<") \(Self.minimumPipelinedThroughputRatio)")
        } else {
            parts.append("pipelined throughput not measured (needs an --in-flight setting above 1)")
        }
        if let ratio = goal.lockstepP50Ratio {
            parts.append("lockstep p50 ratio \(Self.preciseRatio(ratio)) \(ratio <= Self.maximumLockstepP50Ratio ? "≤" : ">") \(Self.maximumLockstepP50Ratio)")
        } else {
            parts.append("lockstep p50 not measured (needs --in-flight 1)")
        }
        let verdict = switch goal.met {
        case true?: "goal met"
        case false?: "goal missed"
        case nil: "goal not evaluated"
        }
        return "Goal: " + parts.joined(separator: "; ") + " → " + verdict
    }

    // MARK: JSON

    var json: [UInt8] {
        var writer = JSONWriter(capacity: 8192)
        writer.beginObject()
        writer.key("benchmark")
        writer.string("svcbench")
        writer.key("libzmq")
        writer.string(libzmqVersion)
        writer.key("cores")
        writer.int(cores)
        writer.key("warmupSeconds")
        writer.double(warmup)
        writer.key("seconds")
        writer.double(seconds)
        writer.key("rounds")
        writer.int(rounds)
        writer.key("body")
        writer.string(body)
        writer.key("settings")
        writer.beginArray()
        for setting in settings {
            writer.beginObject()
            writer.key("inFlight")
            writer.int(setting.inFlight)
            writer.key("runs")
            writer.beginArray()
            for run in setting.runs {
                writer.beginObject()
                writer.key("round")
                writer.int(run.round)
                writer.key("target")
                writer.string(run.target.rawValue)
                writer.key("roundTrips")
                writer.int(run.roundTrips)
                writer.key("errors")
                writer.int(run.errors)
                Self.writeFigures(throughput: run.throughput, p50: run.p50Microseconds, p99: run.p99Microseconds, into: &writer)
                writer.endObject()
            }
            writer.endArray()
            writer.key("median")
            writer.beginObject()
            for target in BenchTarget.allCases {
                let medians = setting.medians(of: target)
                writer.key(target.rawValue)
                writer.beginObject()
                Self.writeFigures(throughput: medians.throughput, p50: medians.p50Microseconds, p99: medians.p99Microseconds, into: &writer)
                writer.key("errors")
                writer.int(medians.errors)
                writer.endObject()
            }
            writer.endObject()
            let ratios = setting.ratios
            writer.key("ratio")
            writer.beginObject()
            writer.key("throughput")
            writer.double(Self.rounded(ratios.throughput, 3))
            writer.key("p50")
            writer.double(Self.rounded(ratios.p50, 3))
            writer.key("p99")
            writer.double(Self.rounded(ratios.p99, 3))
            writer.endObject()
            writer.endObject()
        }
        writer.endArray()
        let goal = goal
        writer.key("goal")
        writer.beginObject()
        writer.key("pipelinedInFlight")
        if let pipelined = goal.pipelined { writer.int(pipelined.inFlight) } else { writer.null() }
        writer.key("pipelinedThroughputRatio")
        if let pipelined = goal.pipelined { writer.double(Self.rounded(pipelined.throughputRatio, 3)) } else { writer.null() }
        writer.key("minimumPipelinedThroughputRatio")
        writer.double(Self.minimumPipelinedThroughputRatio)
        writer.key("lockstepP50Ratio")
        if let ratio = goal.lockstepP50Ratio { writer.double(Self.rounded(ratio, 3)) } else { writer.null() }
        writer.key("maximumLockstepP50Ratio")
        writer.double(Self.maximumLockstepP50Ratio)
        writer.key("met")
        if let met = goal.met { writer.bool(met) } else { writer.null() }
        writer.endObject()
        writer.endObject()
        return writer.finish() + [UInt8(ascii: "\n")]
    }

    private static func writeFigures(throughput: Double, p50: Double, p99: Double, into writer: inout JSONWriter) {
        writer.key("roundTripsPerSecond")
        writer.double(rounded(throughput, 0))
        writer.key("p50Microseconds")
        writer.double(rounded(p50, 1))
        writer.key("p99Microseconds")
        writer.double(rounded(p99, 1))
    }

    // MARK: Formatting

    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        guard value.isFinite else { return value }
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }

    /// `12,345` for throughput.
    static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }

    static func micros(_ value: Double) -> String {
        value.isFinite ? String(format: "%.1f", value) : "n/a"
    }

    static func ratio(_ value: Double) -> String {
        value.isFinite ? String(format: "%.2f×", value) : "n/a"
    }

    /// Three decimals, for the goal line, so a value at the threshold reads unambiguously.
    static func preciseRatio(_ value: Double) -> String {
        value.isFinite ? String(format: "%.3f×", value) : "n/a"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The round trips/s, p50 µs, p99 µs and errors columns of a run or median row, the
    /// throughput right-aligned to `throughputWidth`.
    static func measures(throughput: Double, p50: Double, p99: Double, errors: Int, throughputWidth: Int = 13) -> String {
        "\(pad(grouped(throughput), throughputWidth))  \(pad(micros(p50), 8))  \(pad(micros(p99), 8))  \(pad(errors, 6))"
    }

    /// Right-aligns to `width`; a negative width left-aligns.
    static func pad(_ value: some CustomStringConvertible, _ width: Int) -> String {
        let text = value.description
        let fill = String(repeating: " ", count: max(0, abs(width) - text.count))
        return width < 0 ? text + fill : fill + text
    }
}

import Foundation
import LoadEngine
import Histogram
import WireJSON

/// The result of a stress run: the load (throughput, latency, replies by code) and the verdict
/// on every invariant. Rendered as a table for people or as JSON.
struct StressReport {
    /// The run's settings, as JSON.
    let settings: JSONObject
    /// Seconds the load ran (first intended send to last reply).
    let elapsedSeconds: Double
    let tally: StressTally
    let late: Int
    let latency: Histogram<UInt64>
    let useCases: [(name: String, stats: StressUseCaseStats)]
    let invariants: [InvariantResult]
    /// Problems of the clients themselves (e.g. a socket failure), if any.
    let clientFailures: [String]
    /// Each instance's part, in the order they were named.
    let instances: [StressInstanceSummary]
    /// What became of the writes of unknown outcome.
    let resolution: StressResolution
    /// The largest share of requests sent that may be refused as transient, go unanswered or end
    /// with an unknown outcome in a clean run (`--max-refused-share`).
    let maximumRefusedShare: Double

    /// `--max-refused-share` by default: a quarter. A run where more were refused or lost
    /// measured the service's refusals, not its rules.
    static let defaultMaximumRefusedShare = 0.25

    /// Requests refused as transient (`overloaded`, `unavailable`, `deadline_exceeded`), left
    /// unanswered, or answered with an unknown outcome, as a share of those sent.
    var refusedShare: Double {
        tally.sent > 0 ? Double(tally.transient + tally.timedOut + tally.outcomeUnknown) / Double(tally.sent) : 0
    }

    /// Violations over all invariants.
    var violationCount: Int { invariants.reduce(0) { $0 + $1.violationCount } }

    /// Whether the run is clean: no violation, no unexpected error (during the load or in the
    /// resolution), no client failure, and no more refused, unanswered or of unknown outcome than
    /// ``maximumRefusedShare``.
    var isClean: Bool {
        violationCount == 0 && tally.unexpected == 0 && resolution.unexpectedErrors == 0 && clientFailures.isEmpty
            && refusedShare <= maximumRefusedShare
    }

    /// Replies per second over the run.
    var throughput: Double { elapsedSeconds > 0 ? Double(tally.answered) / elapsedSeconds : 0 }

    private static func percentiles(_ histogram: Histogram<UInt64>) -> JSONValue {
        guard histogram.totalCount > 0 else { return .null }
        return .object(JSONObject([
            ("p50", .int(Int(histogram.valueAtPercentile(50)))), ("p90", .int(Int(histogram.valueAtPercentile(90)))),
            ("p99", .int(Int(histogram.valueAtPercentile(99)))), ("p999", .int(Int(histogram.valueAtPercentile(99.9)))),
            ("max", .int(Int(histogram.max))),
        ]))
    }

    /// The report as one JSON object (`--json`).
    var json: JSONValue {
        var useCaseObject = JSONObject()
        for (name, stats) in useCases {
            useCaseObject.append(key: name, value: .object(JSONObject([
                ("sent", .int(stats.sent)), ("ok", .int(stats.ok)),
                ("errors", .object(JSONObject(stats.errors.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }))),
                ("latencyMicros", Self.percentiles(stats.latency)),
            ])))
        }
        let invariantList: [JSONValue] = invariants.map { result in
            .object(JSONObject([
                ("name", .string(result.name)), ("rule", .string(result.rule)), ("checked", .int(result.checked)),
                ("violations", .int(result.violationCount)), ("details", .array(result.violations.map { .string($0) })),
            ]))
        }
        return .object(JSONObject([
            ("clean", .bool(isClean)),
            ("refusedShare", .double((refusedShare * 1000).rounded() / 1000)),
            ("settings", .object(settings)),
            ("load", .object(JSONObject([
                ("elapsedSeconds", .double((elapsedSeconds * 1000).rounded() / 1000)),
                ("sent", .int(tally.sent)), ("answered", .int(tally.answered)),
                ("throughputPerSecond", .double((throughput * 10).rounded() / 10)),
                ("ok", .int(tally.ok)), ("expectedRefusals", .int(tally.refused)), ("transientRefusals", .int(tally.transient)),
                ("unexpectedErrors", .int(tally.unexpected)), ("outcomeUnknown", .int(tally.outcomeUnknown)),
                ("timeouts", .int(tally.timedOut)), ("lateReplies", .int(late)),
                ("delayedByOutstandingCap", .int(tally.behind)), ("unsentQueueFull", .int(tally.unsent)),
                ("failovers", .int(tally.failovers)),
            ]))),
            ("instances", .array(instances.map(\.json))),
            ("unknownOutcomes", resolution.json),
            ("latencyMicros", Self.percentiles(latency)),
            ("useCases", .object(useCaseObject)),
            ("invariants", .array(invariantList)),
            ("violations", .int(violationCount)),
            ("clientFailures", .array(clientFailures.map { .string($0) })),
        ]))
    }

    /// How the latencies were taken, for the report's latency line.
    private var latencyBasis: String {
        guard let tick = settings["tickMs"]?.doubleValue, tick > 0 else { return " (from the intended send time)" }
        let ms = Self.plainNumber(tick)
        return " (from the intended send time; replies are read every \(ms) ms, so each is up to \(ms) ms high)"
    }

    /// `value` without a trailing ".0".
    private static func plainNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The report for people.
    var text: String {
        var lines: [String] = []
        let latencyLine: String
        if latency.totalCount > 0 {
            latencyLine = "p50 \(Self.milliseconds(latency.valueAtPercentile(50)))  p90 \(Self.milliseconds(latency.valueAtPercentile(90)))  "
                + "p99 \(Self.milliseconds(latency.valueAtPercentile(99)))  p99.9 \(Self.milliseconds(latency.valueAtPercentile(99.9)))  "
                + "max \(Self.milliseconds(latency.max))"
        } else {
            latencyLine = "-"
        }
        lines.append(keyValueLines([
            ("settings", settings.map { "\($0.key)=\(plainText($0.value))" }.joined(separator: " ")),
            ("requests", "\(Self.grouped(tally.sent)) sent, \(Self.grouped(tally.answered)) answered in \(String(format: "%.1f", elapsedSeconds)) s (\(Self.grouped(Int(throughput.rounded())))/s)"),
            ("replies", "\(Self.grouped(tally.ok)) ok, \(Self.grouped(tally.refused)) expected refusals, \(Self.grouped(tally.transient)) transient (retryable), \(Self.grouped(tally.outcomeUnknown)) of unknown outcome, \(Self.grouped(tally.unexpected)) unexpected errors"),
            ("no answer", "\(tally.timedOut) timed out, \(late) answered late; \(tally.behind) sends delayed by the outstanding cap, \(tally.unsent) not sent (queue full)"),
            ("unknown outcomes", resolution.text),
            ("latency", latencyLine + latencyBasis),
        ]))
        lines.append("")
        if instances.count > 1 {
            lines.append(renderTable(headers: StressInstanceSummary.headers, rows: instances.map(\.row), rightAligned: [1, 2, 3, 4, 5, 6, 7, 8, 9]))
            lines.append("")
        }
        var rows: [[String]] = []
        for (name, stats) in useCases {
            let codes = stats.errors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let hasLatency = stats.latency.totalCount > 0
            rows.append([
                name, Self.grouped(stats.sent), Self.grouped(stats.ok),
                hasLatency ? Self.milliseconds(stats.latency.valueAtPercentile(50)) : "-",
                hasLatency ? Self.milliseconds(stats.latency.valueAtPercentile(99)) : "-",
                hasLatency ? Self.milliseconds(stats.latency.max) : "-",
                codes,
            ])
        }
        lines.append(renderTable(headers: ["USE CASE", "SENT", "OK", "P50", "P99", "MAX", "ERRORS BY CODE"], rows: rows, rightAligned: [1, 2, 3, 4, 5]))
        lines.append("")
        lines.append(renderTable(
            headers: ["INVARIANT", "CHECKED", "VIOLATIONS", "RULE"],
            rows: invariants.map { [$0.name, Self.grouped($0.checked), String($0.violationCount), $0.rule] },
            rightAligned: [1, 2]))
        for result in invariants where !result.holds {
            lines.append("")
            lines.append("\(result.name) violated \(result.violationCount) times:")
            lines += result.violations.map { "  - \($0)" }
        }
        for failure in clientFailures { lines.append("client failure: \(failure)") }
        lines.append("")
        if isClean {
            lines.append("verdict: clean — \(invariants.count) invariants hold, no unexpected errors")
        } else {
            var reasons: [String] = []
            if violationCount > 0 { reasons.append("\(violationCount) invariant violations") }
            if tally.unexpected > 0 { reasons.append("\(tally.unexpected) unexpected errors") }
            if resolution.unexpectedErrors > 0 { reasons.append("\(resolution.unexpectedErrors) unexpected errors resending unknown outcomes") }
            if !clientFailures.isEmpty { reasons.append("\(clientFailures.count) client failures") }
            if refusedShare > maximumRefusedShare {
                reasons.append(String(
                    format: "%.1f %% of requests refused as overloaded/unavailable, unanswered or of unknown outcome (more than %.1f %%, --max-refused-share): the load was more than the service sustains",
                    refusedShare * 100, maximumRefusedShare * 100
                ))
            }
            lines.append("verdict: FAILED — " + reasons.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// Microseconds as milliseconds for people: `0.42 ms`, `12.3 ms`, `1,204 ms`.
    static func milliseconds(_ micros: UInt64) -> String {
        let value = Double(micros) / 1000
        if value < 10 { return String(format: "%.2f ms", value) }
        if value < 100 { return String(format: "%.1f ms", value) }
        return "\(grouped(Int(value.rounded()))) ms"
    }

    /// `12345` → `12,345`.
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return value < 0 ? "-" + result : result
    }
}

import ArgumentParser
import WireContract
import WireJSON

/// `svcctl stats`: per-use-case request counts, errors, in-flight requests, replies dropped for
/// vanished peers and latency; then the answers per caller and use case; then the live event
/// stream's progress, subscribers and lag.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show per-use-case requests, errors, in-flight requests, dropped replies and latency percentiles, the answers per caller, and the event stream's figures."
    )

    /// Output formats of `stats`.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table
        case prometheus
    }

    @OptionGroup var options: GlobalOptions

    @Option(name: .long, help: "table or prometheus (svcd's Prometheus exposition text, as its GET /metrics serves it).")
    var format: Format = .table

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let client = try AdminClient(options: options)
            switch format {
            case .table:
                emit(try client.call(op: .stats), options: options, human: Self.render)
            case .prometheus:
                let prometheus = AdminOperation.StatisticsFormat.prometheus.rawValue
                let result = try client.call(op: .stats, params: [AdminOperation.Parameter.format: .string(prometheus)])
                emit(result, options: options) { result in
                    var text = result[AdminOperation.Result.text]?.stringValue ?? ""
                    while text.last == "\n" { text.removeLast() }
                    return text
                }
            }
        }
    }

    /// One row per use case: requests, errors (total and by code), in flight, p50/p90/p99/max µs,
    /// replies dropped because the peer had gone, the longest wait of a request that ran ("-"
    /// from an svcd that does not report one of them).
    static func render(_ result: JSONValue) -> String {
        typealias Key = AdminOperation.Result
        var rows: [[String]] = []
        for member in result[EndpointsFile.Key.useCases]?.objectValue ?? JSONObject() {
            let stats = member.value
            let errors = stats[Key.errors]?.objectValue ?? JSONObject()
            let errorTotal = errors.reduce(0) { $0 + ($1.value.intValue ?? 0) }
            let byCode = errors.filter { ($0.value.intValue ?? 0) != 0 }
                .map { "\($0.key)=\(plainText($0.value))" }.joined(separator: " ")
            let latency = stats[Key.latencyMicros]
            rows.append([
                member.key,
                plainText(stats[Key.requests]),
                String(errorTotal),
                plainText(stats[Key.inFlight]),
                micros(latency?[Key.p50]), micros(latency?[Key.p90]), micros(latency?[Key.p99]), micros(latency?[Key.max]),
                plainText(stats[Key.droppedReplies]),
                plainText(stats[Key.longestWaitMicros]),
                byCode,
            ])
        }
        let table = renderTable(
            headers: ["USE CASE", "REQUESTS", "ERRORS", "IN FLIGHT", "P50 µs", "P90 µs", "P99 µs", "MAX µs", "DROPPED", "LONGEST WAIT µs", "ERROR CODES"],
            rows: rows,
            rightAligned: [1, 2, 3, 4, 5, 6, 7, 8, 9]
        )
        var text = table
        if let callers = result[Key.callers]?.objectValue, !callers.isEmpty {
            text += "\n\n" + renderCallers(callers)
        }
        guard let events = result[Key.events] else { return text }
        let lag = events[Key.lagMillis]
        return text + "\n\n" + keyValueLines([
            ("events written (last seq)", plainText(events[Key.lastWrittenSeq])),
            ("events published (last seq)", plainText(events[Key.lastPublishedSeq])),
            ("published since start", plainText(events[Key.published])),
            ("live subscribers", plainText(events[Key.subscribers])),
            ("write → publish ms", "p50 \(micros(lag?[Key.p50]))  p90 \(micros(lag?[Key.p90]))  p99 \(micros(lag?[Key.p99]))  max \(micros(lag?[Key.max]))"),
        ])
    }

    /// One row per caller and use case it called: requests, `ok` answers, and the errors by code.
    static func renderCallers(_ callers: JSONObject) -> String {
        var rows: [[String]] = []
        for caller in callers {
            for useCase in caller.value.objectValue ?? JSONObject() {
                let codes = useCase.value.objectValue ?? JSONObject()
                let total = codes.reduce(0) { $0 + ($1.value.intValue ?? 0) }
                let succeeded = codes["ok"]?.intValue ?? 0
                let errors = codes.filter { $0.key != "ok" }.map { "\($0.key)=\(plainText($0.value))" }.joined(separator: " ")
                rows.append([caller.key, useCase.key, String(total), String(succeeded), errors])
            }
        }
        return renderTable(headers: ["CALLER", "USE CASE", "REQUESTS", "OK", "ERROR CODES"], rows: rows, rightAligned: [2, 3])
    }

    /// A latency in microseconds: whole numbers as they are, fractions to one decimal.
    static func micros(_ value: JSONValue?) -> String {
        guard let value, let number = value.doubleValue else { return "-" }
        if let integer = value.intValue { return String(integer) }
        let tenths = (number * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}

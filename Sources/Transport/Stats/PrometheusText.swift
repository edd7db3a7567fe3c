/// Renders use-case statistics in the Prometheus text exposition format (version 0.0.4).
///
/// Three metric families, each with one `# HELP` and one `# TYPE` line, then one sample per use
/// case (in the order given):
/// - `svc_requests_total{use_case,outcome}` (counter): `outcome` is `ok` (always present) or a
///   wire error code (those with a count, sorted by code);
/// - `svc_in_flight{use_case}` (gauge);
/// - `svc_request_latency_microseconds{use_case,quantile}` (gauge): quantiles `0.5`, `0.9`,
///   `0.99` and `1` (the maximum).
///
/// Label values are escaped as the format requires (`\` → `\\`, `"` → `\"`, newline → `\n`).
public enum PrometheusText {
    /// The exposition text of `stats`, ending with a newline.
    public static func render(_ stats: [(name: String, statistics: UseCaseStatistics)]) -> String {
        var text = ""
        text += "# HELP svc_requests_total Requests answered, by use case and outcome (ok or the wire error code).\n"
        text += "# TYPE svc_requests_total counter\n"
        for (name, statistics) in stats {
            let useCase = escapeLabelValue(name)
            text += "svc_requests_total{use_case=\"\(useCase)\",outcome=\"ok\"} \(statistics.succeeded)\n"
            for (code, count) in statistics.errors.sorted(by: { $0.key < $1.key }) {
                text += "svc_requests_total{use_case=\"\(useCase)\",outcome=\"\(escapeLabelValue(code))\"} \(count)\n"
            }
        }
        text += "# HELP svc_in_flight Requests accepted and not yet answered.\n"
        text += "# TYPE svc_in_flight gauge\n"
        for (name, statistics) in stats {
            text += "svc_in_flight{use_case=\"\(escapeLabelValue(name))\"} \(statistics.inFlight)\n"
        }
        text += "# HELP svc_request_latency_microseconds Latency from receipt to reply, in microseconds, by quantile (1 is the maximum).\n"
        text += "# TYPE svc_request_latency_microseconds gauge\n"
        for (name, statistics) in stats {
            let useCase = escapeLabelValue(name)
            let latency = statistics.latencyMicros
            for (quantile, value) in [("0.5", latency.p50), ("0.9", latency.p90), ("0.99", latency.p99), ("1", latency.max)] {
                text += "svc_request_latency_microseconds{use_case=\"\(useCase)\",quantile=\"\(quantile)\"} \(format(value))\n"
            }
        }
        return text
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func escapeLabelValue(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") }) else {
            return value
        }
        var escaped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped.append(contentsOf: #"\\"#.unicodeScalars)
            case "\"": escaped.append(contentsOf: #"\""#.unicodeScalars)
            case "\n": escaped.append(contentsOf: #"\n"#.unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// A sample value: integral values without a fraction, `NaN`, `+Inf` and `-Inf` as spelled
    /// by the format, anything else as Swift's shortest round-tripping form.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }
}

import Transport
import WireJSON

extension AdminOperations {
    /// `stats`: per use case, in endpoint order, requests, errors by code, in flight, replies
    /// dropped for vanished peers and latency percentiles (µs); with `{"format": "prometheus"}`, the same as Prometheus exposition text.
    func statistics(format: JSONValue?) throws -> JSONValue {
        let collected = endpoints.map { (name: $0.name.rawValue, statistics: $0.statistics()) }
        switch format?.stringValue {
        case nil where format == nil || format == .null, "json":
            var useCases: [(String, JSONValue)] = []
            for (name, statistics) in collected {
                let errors = statistics.errors.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) }
                let latency = statistics.latencyMicros
                useCases.append((name, .object(JSONObject([
                    ("requests", .int(statistics.requests)),
                    ("errors", .object(JSONObject(errors))),
                    ("inFlight", .int(statistics.inFlight)),
                    ("droppedReplies", .int(statistics.droppedReplies)),
                    ("latencyMicros", .object(JSONObject([
                        ("p50", .double(latency.p50)), ("p90", .double(latency.p90)),
                        ("p99", .double(latency.p99)), ("max", .double(latency.max)),
                    ]))),
                ]))))
            }
            return .object(JSONObject([("useCases", .object(JSONObject(useCases)))]))
        case "prometheus":
            return .object(JSONObject([("text", .string(PrometheusText.render(collected)))]))
        default:
            throw WireError(.invalidInput, "format must be \"json\" (the default) or \"prometheus\"")
        }
    }
}

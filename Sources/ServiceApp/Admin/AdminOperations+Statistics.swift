import Transport
import WireJSON

extension AdminOperations {
    /// `stats`: per use case, in endpoint order, requests, errors by code, in flight, replies
    /// dropped for vanished peers and latency percentiles (µs); with `{"format": "prometheus"}`,
    /// the service's metrics registry as Prometheus exposition text (what `GET /metrics` serves).
    func statistics(format: JSONValue?) throws -> JSONValue {
        switch format?.stringValue {
        case nil where format == nil || format == .null, "json":
            var useCases: [(String, JSONValue)] = []
            for endpoint in endpoints {
                let name = endpoint.name.rawValue
                let statistics = endpoint.statistics()
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
            return .object(JSONObject([
                ("useCases", .object(JSONObject(useCases))),
                // Clients refused at the CURVE handshake (`--client-keys`); 0 for plaintext endpoints.
                ("refusedClients", .int(authenticator?.refusedHandshakes ?? 0)),
            ]))
        case "prometheus":
            return .object(JSONObject([("text", .string(metrics.exposition()))]))
        default:
            throw WireError(.invalidInput, "format must be \"json\" (the default) or \"prometheus\"")
        }
    }
}

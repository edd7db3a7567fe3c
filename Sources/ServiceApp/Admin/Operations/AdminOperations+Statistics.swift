import Transport
import WireContract
import WireJSON

extension AdminOperations {
    /// `stats`: per use case, in endpoint order, requests, errors by code, in flight, replies
    /// dropped for vanished peers and latency percentiles (µs); the live event stream's progress,
    /// subscribers and lag (ms); with `{"format": "prometheus"}`, the service's metrics registry
    /// as Prometheus exposition text (what `GET /metrics` serves).
    func statistics(_ params: JSONObject) throws -> JSONValue {
        typealias Key = AdminOperation.Result
        let parameter = AdminOperation.Parameter.format
        let format: AdminOperation.StatisticsFormat?
        switch params[parameter] {
        case nil, .null?: format = .json
        case let given?: format = given.stringValue.flatMap(AdminOperation.StatisticsFormat.init(rawValue:))
        }
        switch format {
        case .json?:
            var useCases: [(String, JSONValue)] = []
            // Caller → use case → code → count; the event log's requests under its name.
            var byCaller: [String: [(String, [String: Int])]] = [:]
            for endpoint in useCaseEndpoints {
                let statistics = endpoint.statistics()
                for (caller, codes) in statistics.callers { byCaller[caller, default: []].append((endpoint.name.rawValue, codes)) }
                let errors = statistics.errors.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) }
                let latency = statistics.latencyMicros
                useCases.append((endpoint.name.rawValue, object([
                    (Key.requests, .int(statistics.requests)),
                    (Key.errors, object(errors)),
                    (Key.inFlight, .int(statistics.inFlight)),
                    (Key.droppedReplies, .int(statistics.droppedReplies)),
                    (Key.longestWaitMicros, .int(statistics.longestWaitMicros)),
                    (Key.latencyMicros, object([
                        (Key.p50, .double(latency.p50)), (Key.p90, .double(latency.p90)),
                        (Key.p99, .double(latency.p99)), (Key.max, .double(latency.max)),
                    ])),
                ])))
            }
            for (caller, codes) in eventLog.statistics().callers { byCaller[caller, default: []].append((WireEvent.logName, codes)) }
            let callerCounts = byCaller.sorted { $0.key < $1.key }.map { caller, useCases in
                (caller, object(useCases.map { useCase, codes in
                    (useCase, object(codes.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) }))
                }))
            }
            let events = eventStream.statistics()
            return object([
                (EndpointsFile.Key.useCases, object(useCases)),
                (Key.events, object([
                    (Key.lastWrittenSeq, .int(Int(events.lastWrittenSeq))), (Key.lastPublishedSeq, .int(Int(events.lastPublishedSeq))),
                    (Key.published, .int(events.published)), (Key.subscribers, .int(events.subscribers)),
                    (Key.lagMillis, object([
                        (Key.p50, .double(events.lagMillis.p50)), (Key.p90, .double(events.lagMillis.p90)),
                        (Key.p99, .double(events.lagMillis.p99)), (Key.max, .double(events.lagMillis.max)),
                    ])),
                ])),
                // Clients refused at the CURVE handshake (`--client-keys`), and requests dropped
                // because their key was removed since; 0 for plaintext endpoints.
                (Key.refusedClients, .int((authenticator?.refusedHandshakes ?? 0) + callers.droppedRequests)),
                (Key.callers, object(callerCounts)),
            ])
        case .prometheus?:
            return object([(Key.text, .string(metrics.exposition()))])
        case nil:
            let (json, prometheus) = (AdminOperation.StatisticsFormat.json.rawValue, AdminOperation.StatisticsFormat.prometheus.rawValue)
            throw WireError(.invalidInput, "\(parameter) must be \"\(json)\" (the default) or \"\(prometheus)\"")
        }
    }
}

import Foundation
import Synchronization
import Testing
import SvcdTestSupport
import WireJSON
import WireTestSupport

/// Runs svcctl against a data directory.
private func svcctl(_ arguments: [String]) async throws -> ToolOutcome {
    try await runTool(try ExecutableLocator.svcctl(), arguments, timeout: 20)
}

/// Parses `text` with the Prometheus project's own Python parser and returns each family's
/// name and type ("svc_requests" for the counter `svc_requests_total`, as that parser names it).
private func familyTypes(_ text: String) async throws -> [String: String] {
    let script = """
    import json, sys
    from prometheus_client.parser import text_string_to_metric_families
    families = {}
    for family in text_string_to_metric_families(open(sys.argv[1]).read()):
        families[family.name] = family.type
    print(json.dumps(families))
    """
    var types: [String: String] = [:]
    for member in try await parsedByPrometheusClient(text, script: script).objectValue ?? JSONObject() {
        types[member.key] = member.value.stringValue
    }
    return types
}

/// `svcd --http-port`: Prometheus metrics, liveness and readiness over real HTTP from a real svcd.
@Suite struct MonitoringTests {
    @Test func metricsCountRequestsByUseCaseAndCodeWithLatencyHistogramsThatPrometheusParses() async throws {
        try await withSvcd(seed: true, arguments: ["--http-port", "0"]) { child in
            let endpoints = try await child.endpoints()
            let port = try endpoints.httpPort()
            let getRestaurant = try endpoints.address(.getRestaurant)
            for index in 0..<3 {
                let reply = try await call(getRestaurant, request(id: "ok-\(index)", params: ["restaurantId": "r-000001"]))
                #expect(reply.ok == true, "\(reply)")
            }
            for index in 0..<2 {
                let reply = try await call(getRestaurant, request(id: "missing-\(index)", params: ["restaurantId": "nope"]))
                #expect(reply.code == "not_found", "\(reply)")
            }
            // A live-stream subscriber (svcd reads and sends events only while one is connected).
            let subscribed = Atomic<Bool>(false)
            let subscriber = Task {
                try await withClient(.sub, try #require(endpoints.events), receiveTimeout: 20_000) { client in
                    try client.socket.subscribe()
                    subscribed.store(true, ordering: .releasing)
                    return try client.receiveFrames()
                }
            }
            var subscribers = 0
            let connected = ContinuousClock.now.advanced(by: .seconds(10))
            while subscribers == 0, ContinuousClock.now < connected {
                let stats = try await svcctl(["stats", "--json", "--data-dir", child.dataDirectory])
                subscribers = (try? JSONParser.parse(Array(stats.stdout.utf8)))?["events"]?["subscribers"]?.intValue ?? 0
            }
            #expect(subscribers == 1 && subscribed.load(ordering: .acquiring), "svcd counts the subscriber")
            // A write, so the store has committed at least one batch through the endpoints too.
            let registered = try await call(
                try endpoints.address(.registerUser), request(id: "reg", params: ["name": "Metrics", "email": .string(uniqueEmail("metrics"))])
            )
            #expect(registered.ok == true, "\(registered)")

            let metrics = try await HTTPProbe.request(port: port, path: "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
            let text = metrics.body
            #expect(text.contains(#"svc_requests_total{use_case="GetRestaurant",outcome="ok"} 3"#), "\(text)")
            #expect(text.contains(#"svc_requests_total{use_case="GetRestaurant",outcome="not_found"} 2"#), "\(text)")
            #expect(text.contains(#"svc_requests_total{use_case="RegisterUser",outcome="ok"} 1"#), "\(text)")
            #expect(text.contains("# TYPE svc_request_duration_seconds histogram"), "\(text)")
            #expect(text.contains(#"svc_request_duration_seconds_count{use_case="GetRestaurant"} 5"#), "\(text)")
            #expect(text.contains(#"svc_request_duration_seconds_bucket{use_case="GetRestaurant",le="+Inf"} 5"#), "\(text)")
            #expect(text.contains("# TYPE svc_requests_in_flight gauge"), "\(text)")
            #expect(text.contains(#"svc_requests_in_flight{use_case="GetRestaurant"} 0.0"#), "\(text)")
            #expect(text.contains("# TYPE svc_replies_dropped_total counter"), "\(text)")
            #expect(text.contains(#"svc_replies_dropped_total{use_case="GetRestaurant"} 0"#), "\(text)")
            #expect(text.contains("# TYPE svc_store_commit_batch_size histogram"), "\(text)")
            #expect(text.contains("# TYPE svc_store_commit_duration_seconds histogram"), "\(text)")
            #expect(text.contains("\nsvc_refused_clients_total 0\n"), "the refusal counter exists at 0 without --client-keys: \(text)")
            #expect(!text.contains("quantile="), "latency is a histogram, not quantile gauges")

            let families = try await familyTypes(text)
            #expect(families["svc_requests"] == "counter", "\(families)")
            #expect(families["svc_request_duration_seconds"] == "histogram", "\(families)")
            #expect(families["svc_requests_in_flight"] == "gauge", "\(families)")
            #expect(families["svc_replies_dropped"] == "counter", "\(families)")
            #expect(families["svc_store_commit_batch_size"] == "histogram", "\(families)")
            #expect(families["svc_store_commit_duration_seconds"] == "histogram", "\(families)")

            // The live stream: the registration's event, published a moment after its commit.
            var events = text
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            // One scrape reads the metrics one after another, so it may catch the publication half
            // recorded: wait until it shows all of it.
            let publishedLines = [
                "svc_events_published_total 1", "svc_events_last_published_seq 1.0", "svc_events_last_written_seq 1.0",
                "svc_event_publish_lag_seconds_count 1",
            ]
            while !publishedLines.allSatisfy({ events.contains($0) }), ContinuousClock.now < deadline {
                events = try await HTTPProbe.request(port: port, path: "/metrics").body
            }
            #expect(events.contains("svc_events_published_total 1"), "\(events)")
            #expect(events.contains("svc_events_last_published_seq 1.0") && events.contains("svc_events_last_written_seq 1.0"), "\(events)")
            #expect(try await subscriber.value?.first == Array("UserRegistered".utf8), "the subscriber heard the event")
            #expect(events.contains("svc_event_publish_lag_seconds_count 1"), "\(events)")
            let eventFamilies = try await familyTypes(events)
            #expect(eventFamilies["svc_events_published"] == "counter" && eventFamilies["svc_event_publish_lag_seconds"] == "histogram", "\(eventFamilies)")
            #expect(eventFamilies["svc_event_subscribers"] == "gauge" && eventFamilies["svc_events_last_written_seq"] == "gauge", "\(eventFamilies)")
            let stats = try await svcctl(["stats", "--json", "--data-dir", child.dataDirectory])
            let published = try JSONParser.parse(Array(stats.stdout.utf8))["events"]
            #expect(published?["lastWrittenSeq"] == 1 && published?["lastPublishedSeq"] == 1 && published?["published"] == 1, "\(stats.stdout)")
            #expect(published?["lagMillis"]?["max"]?.doubleValue.map { $0 >= 1 } == true, "\(stats.stdout)")

            // The admin op serves the same registry, so both agree on the counts.
            let prometheus = try await svcctl(["stats", "--format", "prometheus", "--data-dir", child.dataDirectory])
            #expect(prometheus.status == 0, "\(prometheus)")
            #expect(prometheus.stdout.contains(#"svc_requests_total{use_case="GetRestaurant",outcome="not_found"} 2"#), "\(prometheus.stdout)")
            #expect(prometheus.stdout.contains("# TYPE svc_request_duration_seconds histogram"), "\(prometheus.stdout)")
        }
    }

    @Test func healthIsAlwaysOkAndReadinessIsUnavailableWhileDraining() async throws {
        try await withSvcd(seed: false, arguments: ["--http-port", "0"]) { child in
            let port = try await child.endpoints().httpPort()
            #expect(try await HTTPProbe.request(port: port, path: "/healthz").status == 200)
            let ready = try await HTTPProbe.request(port: port, path: "/readyz")
            #expect(ready.status == 200, "\(ready.body)")

            let drain = try await svcctl(["drain", "--data-dir", child.dataDirectory])
            #expect(drain.status == 0, "\(drain)")
            // svcctl returns once svcd answered the drain, which it does after switching.
            let draining = try await HTTPProbe.request(port: port, path: "/readyz")
            #expect(draining.status == 503, "\(draining.body)")
            #expect(draining.body.contains("draining"))
            #expect(try await HTTPProbe.request(port: port, path: "/healthz").status == 200, "alive while draining")

            let resume = try await svcctl(["resume", "--data-dir", child.dataDirectory])
            #expect(resume.status == 0, "\(resume)")
            #expect(try await HTTPProbe.request(port: port, path: "/readyz").status == 200)
        }
    }

    @Test func unknownPathsAre404AndOtherMethodsAre405() async throws {
        try await withSvcd(seed: false, arguments: ["--http-port", "0"]) { child in
            let port = try await child.endpoints().httpPort()
            #expect(try await HTTPProbe.request(port: port, path: "/nothing-here").status == 404)
            #expect(try await HTTPProbe.request(port: port, path: "/metrics/extra").status == 404)
            let post = try await HTTPProbe.request("POST", port: port, path: "/metrics")
            #expect(post.status == 405)
            #expect(post.headers["allow"] == "GET")
            #expect(try await HTTPProbe.request("DELETE", port: port, path: "/readyz").status == 405)
            // The query string does not change the route.
            #expect(try await HTTPProbe.request(port: port, path: "/healthz?verbose=1").status == 200)
        }
    }

    @Test func anHTTPPortInUseStopsStartUpWithAMessageNamingTheAddress() async throws {
        let occupant = try LoopbackSocket.listening()
        defer { occupant.close() }
        let port = try occupant.port
        let child = try await SvcdChild.launch(seed: false, arguments: ["--http-port", String(port)])
        let exited = await child.waitForExit(timeout: 30)
        let stderr = child.stderrText
        await child.stop()
        #expect(exited, "svcd kept running with its HTTP port taken")
        #expect(child.exitStatus == 71, "a listener that cannot bind exits 71 like an endpoint")
        #expect(stderr.contains("cannot listen for HTTP on 127.0.0.1:\(port): Address already in use"), "\(stderr)")
    }

    @Test func svcdWithAnHTTPListenerStopsCleanlyOnSIGTERM() async throws {
        let child = try await SvcdChild.launch(seed: false, arguments: ["--http-port", "0"])
        do {
            let port = try await child.endpoints().httpPort()
            #expect(try await HTTPProbe.request(port: port, path: "/healthz").status == 200)
            child.send(signal: SIGTERM)
            #expect(await child.waitForExit(timeout: 15), "svcd did not stop within 15 s of SIGTERM")
            #expect(child.exitStatus == 0, "\(child.stderrText)")
        } catch {
            await child.stop()
            throw error
        }
        await child.stop()
    }
}

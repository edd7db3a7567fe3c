import Foundation
import Testing
import SvcdTestSupport
import WireContract
import WireJSON
import WireTestSupport

/// `svcd --otlp-endpoint` exports spans over OTLP/HTTP, checked from outside: a Python receiver
/// (`Scripts/otlp-receiver.py`, opentelemetry-proto decoding each `ExportTraceServiceRequest`)
/// stands in for the collector, and plain ZeroMQ requests stand in for a traced caller.
@Suite struct SpanExportTests {
    private static let traceId = "0af7651916cd43dd8448eb211c80319c"
    private static let callerSpan = "b7ad6b7169203331"
    private static let readTraceId = "1bf7651916cd43dd8448eb211c80319c"
    private static let unsampledTraceId = "2cf7651916cd43dd8448eb211c80319c"
    private static let postgresTraceId = "3df7651916cd43dd8448eb211c80319c"

    @Test func aTracedWriteHasAServerSpanUnderTheCallersSpanWithItsStoreSpansAndItsLogLineAndEventNameIt() async throws {
        let receiver = try await OTLPReceiver.start()
        defer { Task { await receiver.stop() } }
        try await withSvcd(seed: true, arguments: ["--otlp-endpoint", receiver.endpoint, "--log-level", "trace"]) { child in
            let endpoints = try await child.endpoints()
            let register = try await call(try endpoints.address(.registerUser), request(id: "w", params: [
                "name": "Traced", "email": .string(uniqueEmail("traced")),
            ], extra: [("traceparent", .string("00-\(Self.traceId)-\(Self.callerSpan)-01")), ("tracestate", "vendor=1")]))
            #expect(register.ok == true, "\(register)")
            let userId = try #require(register.result?["user"]?["id"]?.stringValue)
            // A user svcd does not hold in memory: the read goes to SQLite.
            let read = try await call(try endpoints.address(.getUserProfile), request(id: "r", params: ["userId": "somebody"], extra: [
                ("traceparent", .string("00-\(Self.readTraceId)-\(Self.callerSpan)-01")),
            ]))
            #expect(read.code == "not_found", "\(read)")
            let failed = try await call(try endpoints.address(.getUserProfile), request(id: "f", params: ["userId": "nobody"]))
            #expect(failed.code == "not_found", "\(failed)")
            let unsampled = try await call(try endpoints.address(.getUserProfile), request(id: "u", params: ["userId": .string(userId)], extra: [
                ("traceparent", .string("00-\(Self.unsampledTraceId)-\(Self.callerSpan)-00")),
            ]))
            #expect(unsampled.ok == true, "\(unsampled)")
            let garbage = try await call(try endpoints.address(.getUserProfile), request(id: "g", params: ["userId": .string(userId)], extra: [
                ("traceparent", "00-not-a-trace-context"),
            ]))
            #expect(garbage.ok == true, "an invalid traceparent is ignored: \(garbage)")

            // The spans of all five requests: 3 (write) + 2 (its store) + 3 × 3 (reads: server, queued, sqlite.read) − 1.
            let spans = try await receiver.spans { spans in
                spans.filter { $0["kind"]?.intValue == 2 }.count >= 4 && spans.contains { $0["name"]?.stringValue == "sqlite.commit" }
            }
            func named(_ name: String, trace: String) -> [JSONValue] {
                spans.filter { $0["name"]?.stringValue == name && $0["trace_id"]?.stringValue == trace }
            }
            // The write: a server span, child of the caller's span, in the caller's trace.
            let server = try #require(named("RegisterUser", trace: Self.traceId).first, "\(spans)")
            #expect(server["parent_span_id"]?.stringValue == Self.callerSpan)
            #expect(server["kind"]?.intValue == 2, "SPAN_KIND_SERVER")
            #expect(server["service"]?.stringValue == "svcd")
            let attributes = try #require(server["attributes"])
            #expect(attributes["svc.caller"]?.stringValue == "anonymous")
            #expect(attributes["svc.reply.code"]?.stringValue == "ok")
            #expect(attributes["svc.idempotency.replay"]?.boolValue == false)
            #expect(attributes["rpc.method"]?.stringValue == "RegisterUser")
            #expect(attributes["svc.instance"]?.stringValue?.isEmpty == false)
            #expect(server["status_code"]?.intValue != 2)
            let serverId = try #require(server["span_id"]?.stringValue)
            // Under it: the time it queued, and the store's write with its commit under that.
            #expect(named("queued", trace: Self.traceId).first?["parent_span_id"]?.stringValue == serverId, "\(spans)")
            let write = try #require(named("sqlite.write", trace: Self.traceId).first, "\(spans)")
            #expect(write["parent_span_id"]?.stringValue == serverId)
            #expect(write["attributes"]?["db.system.name"]?.stringValue == "sqlite")
            let commit = try #require(named("sqlite.commit", trace: Self.traceId).first, "\(spans)")
            #expect(commit["parent_span_id"]?.stringValue == write["span_id"]?.stringValue)
            #expect((commit["attributes"]?["svc.store.batch_size"]?.intValue ?? 0) >= 1)
            // Spans nest in time: the store's work lies inside the request's.
            let start = try #require(server["start"]?.int64Value), end = try #require(server["end"]?.int64Value)
            #expect(start <= (write["start"]?.int64Value ?? 0) && (write["end"]?.int64Value ?? .max) <= end, "\(server) \(write)")

            // The read: the caller's trace, with the store's read under it.
            let readServer = try #require(named("GetUserProfile", trace: Self.readTraceId).first, "\(spans)")
            #expect(named("sqlite.read", trace: Self.readTraceId).first?["parent_span_id"]?.stringValue == readServer["span_id"]?.stringValue)
            // A failure: the error's code, and the span's status is error (2).
            #expect(readServer["attributes"]?["svc.reply.code"]?.stringValue == "not_found")
            #expect(readServer["status_code"]?.intValue == 2, "\(readServer)")
            let failedSpan = try #require(spans.first { $0["kind"]?.intValue == 2 && $0["trace_id"]?.stringValue != Self.readTraceId && $0["attributes"]?["svc.reply.code"]?.stringValue == "not_found" }, "\(spans)")
            #expect(failedSpan["parent_span_id"]?.stringValue == "", "no traceparent: the root of a new trace")
            // Not sampled by its caller: nothing exported. The garbage traceparent: a trace of its own.
            #expect(spans.allSatisfy { $0["trace_id"]?.stringValue != Self.unsampledTraceId }, "\(spans)")
            let roots = spans.filter { $0["kind"]?.intValue == 2 && $0["parent_span_id"]?.stringValue == "" }
            #expect(roots.count == 2, "the failure and the garbage traceparent start traces: \(roots)")

            // The log line of the write names the exported span.
            let lines = child.stderrText.split(separator: "\n").filter { $0.contains("request answered") && $0.contains("RegisterUser") }
            #expect(lines.contains { $0.contains("trace_id=\(Self.traceId)") && $0.contains("span_id=\(serverId)") }, "\(lines)")

            // The write's event continues the trace, its parent the server span.
            let log = try #require(endpoints.eventLog)
            let events = try await call(log, request(id: "e", params: ["after": 0, "limit": 1000, "types": ["UserRegistered"]]))
            let event = try #require(events.result?["events"]?.arrayValue?.last, "\(events)")
            #expect(event["traceparent"]?.stringValue == "00-\(Self.traceId)-\(serverId)-01", "\(event)")
        }
    }

    @Test func atSamplingZeroTheTracesSvcdStartsAreNotExportedButACallersSampledTraceIs() async throws {
        let receiver = try await OTLPReceiver.start()
        defer { Task { await receiver.stop() } }
        try await withSvcd(seed: true, arguments: ["--otlp-endpoint", receiver.endpoint, "--trace-sampling", "0"]) { child in
            let address = try await child.endpoints().address(.getRestaurant)
            for index in 0..<20 {
                let reply = try await call(address, request(id: "root-\(index)", params: ["restaurantId": "r-000001"]))
                #expect(reply.ok == true, "\(reply)")
            }
            let sampled = try await call(address, request(id: "sampled", params: ["restaurantId": "r-000001"], extra: [
                ("traceparent", .string("00-\(Self.traceId)-\(Self.callerSpan)-01")),
            ]))
            #expect(sampled.ok == true, "\(sampled)")
            // Spans are exported in the order they end: once the last request's is in, the others' would be.
            let spans = try await receiver.spans { $0.contains { $0["trace_id"]?.stringValue == Self.traceId && $0["kind"]?.intValue == 2 } }
            #expect(spans.contains { $0["trace_id"]?.stringValue == Self.traceId && $0["parent_span_id"]?.stringValue == Self.callerSpan }, "\(spans)")
            #expect(spans.allSatisfy { $0["trace_id"]?.stringValue == Self.traceId }, "no trace svcd started is exported: \(spans)")
        }
    }

    @Test func onPostgreSQLAWritesTransactionAndEachOfItsStatementsAreSpansUnderTheRequest() async throws {
        let receiver = try await OTLPReceiver.start()
        defer { Task { await receiver.stop() } }
        try await withPostgres(fsync: false) { server in
            let arguments = ["--store", "postgres", "--database-url", server.url, "--otlp-endpoint", receiver.endpoint]
            try await withSvcd(seed: false, arguments: arguments) { child in
                // With a key: the claim, the insert and the recorded result in one transaction.
                let reply = try await call(try await child.endpoints().address(.registerUser), request(params: [
                    "name": "P", "email": .string(uniqueEmail("postgres-traced")),
                ], extra: [("traceparent", .string("00-\(Self.postgresTraceId)-\(Self.callerSpan)-01")), ("idempotencyKey", "postgres-traced-1")]))
                #expect(reply.ok == true, "\(reply)")
                func mine(_ spans: [JSONValue]) -> [JSONValue] { spans.filter { $0["trace_id"]?.stringValue == Self.postgresTraceId } }
                func named(_ name: String, _ spans: [JSONValue]) -> [JSONValue] { spans.filter { $0["name"]?.stringValue == name } }
                let spans = mine(try await receiver.spans { spans in
                    let mine = mine(spans)
                    return !named("RegisterUser", mine).isEmpty && !named("postgres.transaction", mine).isEmpty && named("postgres.statement", mine).count >= 4
                })
                let request = try #require(named("RegisterUser", spans).first, "\(spans)")
                let transaction = try #require(named("postgres.transaction", spans).first, "\(spans)")
                #expect(transaction["parent_span_id"]?.stringValue == request["span_id"]?.stringValue)
                #expect(transaction["attributes"]?["db.system.name"]?.stringValue == "postgresql")
                // The claim, the insert and the recorded result inside the transaction; the use
                // case's read before it (is the e-mail address taken?) has its statement too.
                let statements = named("postgres.statement", spans)
                let inTransaction = statements.filter { $0["parent_span_id"]?.stringValue == transaction["span_id"]?.stringValue }
                #expect(inTransaction.count >= 3, "\(statements)")
                let reads = Set(named("postgres.read", spans).compactMap { $0["span_id"]?.stringValue })
                #expect(statements.allSatisfy { $0["parent_span_id"]?.stringValue == transaction["span_id"]?.stringValue || reads.contains($0["parent_span_id"]?.stringValue ?? "") }, "\(statements)")
                #expect(statements.allSatisfy { $0["attributes"]?["db.operation.name"]?.stringValue?.isEmpty == false }, "each names its statement: \(statements)")
            }
        }
    }

    @Test func aCollectorThatIsDownOrHangsDelaysNoRequestAndIsReportedAsAWarning() async throws {
        let hanging = try await OTLPReceiver.start(hanging: true)
        defer { Task { await hanging.stop() } }
        // A collector that has gone away: nothing listens on its port any more.
        let gone = try await OTLPReceiver.start()
        await gone.stop()
        for endpoint in [hanging.endpoint, gone.endpoint] {
            try await withSvcd(seed: true, arguments: ["--otlp-endpoint", endpoint]) { child in
                let address = try await child.endpoints().address(.getRestaurant)
                var answered = 0
                let started = ContinuousClock.now
                // Over several export rounds (a batch a second), each reply within 5 s.
                while ContinuousClock.now - started < .seconds(3) {
                    let reply = try await call(address, request(params: ["restaurantId": "r-000001"], extra: [
                        ("traceparent", .string("00-\(Self.traceId)-\(Self.callerSpan)-01")),
                    ]), receiveTimeout: 5000)
                    #expect(reply.ok == true, "\(reply)")
                    answered += 1
                }
                #expect(answered > 10, "requests kept being answered: \(answered) in 3 s")
                if endpoint != hanging.endpoint {
                    // Refused at once: the failed export is a warning in svcd's log.
                    let deadline = ContinuousClock.now + .seconds(15)
                    while !child.stderrText.contains("warning"), ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    let warning = child.stderrText.split(separator: "\n").first { $0.contains(" warning ") && $0.contains("exporter=otlp") }
                    #expect(warning != nil, "\(child.stderrText.suffix(1500))")
                }
            }
        }
    }
}

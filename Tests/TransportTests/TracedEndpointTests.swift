import InMemoryTracing
import Telemetry
import Testing
import Tracing
import Transport
import WireContract
import WireJSON
import WireTestSupport

/// Requests traced by the service's tracer (here swift-distributed-tracing's in-memory one, in
/// place of the OTLP exporter): many at once, each gets exactly one server span, with its queue
/// time and its store's work as children; and a write's event carries its request's
/// `traceparent` whether or not spans are exported.
@Suite struct TracedEndpointTests {
    private static let callerTrace = "0af7651916cd43dd8448eb211c80319c"

    @Test func concurrentTracedWritesEachGetOneServerSpanWithTheirQueueTimeAndStoreSpansAsChildren() async throws {
        let tracer = InMemoryTracer()
        let clients = 8, perClient = 25
        try await withService(tracing: RequestTracing(tracer: tracer, instance: "test")) { harness in
            let address = try harness.address(.registerUser)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<clients {
                    group.addTask {
                        try await withClient(.dealer, address) { socket in
                            for index in 0..<perClient {
                                try socket.send(body: request(id: "\(client)-\(index)", params: [
                                    "name": "T", "email": .string(uniqueEmail("traced-\(client)-\(index)")),
                                ], extra: [("traceparent", .string("00-\(Self.callerTrace)-b7ad6b7169203331-01"))]))
                            }
                            let replies = try socket.receiveReplies(upTo: perClient)
                            #expect(replies.count == perClient && replies.allSatisfy { $0.ok == true }, "\(replies.filter { $0.ok != true }.prefix(2))")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = clients * perClient
            // Spans end before their replies are sent: every one is finished now.
            let spans = tracer.finishedSpans
            let servers = spans.filter { $0.operationName == UseCaseName.registerUser.rawValue }
            #expect(servers.count == total)
            #expect(servers.allSatisfy { $0.kind == .server && $0.attributes[SpanAttributeName.replyCode]?.toSpanAttribute() == .string("ok") })
            #expect(Set(servers.map(\.spanID)).count == total, "one span per request")
            let serverIds = Set(servers.map(\.spanID))
            for name in ["queued", StoreSpanName.sqliteWrite] {
                let children = spans.filter { $0.operationName == name }
                #expect(children.count == total, "\(name): \(children.count)")
                #expect(Set(children.compactMap(\.parentSpanID)) == serverIds, "every \(name) span's parent is a server span, one each")
            }
            let writeIds = Set(spans.filter { $0.operationName == StoreSpanName.sqliteWrite }.map(\.spanID))
            let commits = spans.filter { $0.operationName == StoreSpanName.sqliteCommit }
            #expect(commits.count == total)
            #expect(Set(commits.compactMap(\.parentSpanID)) == writeIds, "each commit span under its write's span")
        }
    }

    @Test func aWritesEventCarriesItsRequestsTraceparentWithoutSpanExport() async throws {
        try await withService { harness in
            let address = try harness.address(.registerUser)
            let traced = try await call(address, request(params: ["name": "T", "email": .string(uniqueEmail("event-traced"))], extra: [
                ("traceparent", .string("00-\(Self.callerTrace)-b7ad6b7169203331-01")),
            ]))
            #expect(traced.ok == true, "\(traced)")
            let untraced = try await call(address, request(params: ["name": "U", "email": .string(uniqueEmail("event-untraced"))]))
            #expect(untraced.ok == true, "\(untraced)")
            let log = try #require(try EndpointsFile.read(from: harness.dataDirectory).eventLog)
            let reply = try await call(log, request(params: ["after": 0, "limit": 100, "types": ["UserRegistered"]]))
            let events = try #require(reply.result?["events"]?.arrayValue, "\(reply)")
            try #require(events.count == 2, "\(reply)")
            let first = try #require(events[0]["traceparent"]?.stringValue.flatMap(TraceContext.parse(traceparent:)), "\(events[0])")
            #expect(first.traceId == Self.callerTrace && first.flags == 1, "the caller's trace, sampled as it said")
            #expect(first.parentSpanId != 0xb7ad_6b71_6920_3331, "the parent is svcd's span, not the caller's")
            let second = try #require(events[1]["traceparent"]?.stringValue.flatMap(TraceContext.parse(traceparent:)), "\(events[1])")
            #expect(second.traceId != Self.callerTrace && second.flags == 0, "a trace the request started")
        }
    }
}

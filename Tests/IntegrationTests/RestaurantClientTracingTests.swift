import Foundation
import RestaurantClient
import SvcdTestSupport
import Testing
import Tracing
import WireContract
import WireTestSupport

/// The trace context a test puts in a task's `ServiceContext`, as a `traceparent`.
private enum TestTraceparentKey: ServiceContextKey {
    typealias Value = String
}

/// An instrument that injects the task's ``TestTraceparentKey`` as `traceparent` (an
/// application would bootstrap swift-otel's); it touches no other context, so the other tests
/// of this process, which set none, are not affected.
private struct TestTraceInstrument: Instrument {
    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {}

    func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        if let traceparent = context[TestTraceparentKey.self] {
            injector.inject(traceparent, forKey: "traceparent", into: &carrier)
            injector.inject("test=1", forKey: "tracestate", into: &carrier)
        }
    }

    /// Bootstraps the process's instrument once (the system allows one bootstrap per process).
    static let bootstrapped: Void = InstrumentationSystem.bootstrap(TestTraceInstrument())
}

/// RestaurantClient's requests carry the calling task's trace context: svcd's log line for the
/// request names the caller's trace, and the event of a write continues it.
@Suite struct RestaurantClientTracingTests {
    @Test func aCallMadeInATracedTaskCarriesItsTraceparentIntoSvcdsLogAndTheWritesEvent() async throws {
        _ = TestTraceInstrument.bootstrapped
        let traceId = "5af7651916cd43dd8448eb211c80319c"
        try await withSvcd(seed: false, arguments: ["--log-level", "trace"]) { child in
            let endpoints = try await child.endpoints()
            let client = try RestaurantClient.discover(dataDirectory: child.dataDirectory)
            var context = ServiceContext.topLevel
            context[TestTraceparentKey.self] = "00-\(traceId)-b7ad6b7169203331-01"
            let user = try await ServiceContext.withValue(context) {
                try await client.registerUser(name: "Traced", email: uniqueEmail("client-traced"))
            }
            // Outside the traced task: no trace context, the request starts its own trace.
            _ = try await client.registerUser(name: "Untraced", email: uniqueEmail("client-untraced"))

            let deadline = ContinuousClock.now + .seconds(10)
            var lines: [Substring] = []
            while lines.count < 2, ContinuousClock.now < deadline {
                lines = child.stderrText.split(separator: "\n").filter { $0.contains("request answered") && $0.contains("RegisterUser") }
                if lines.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(lines.count == 2 && lines.filter { $0.contains("trace_id=\(traceId)") }.count == 1, "\(lines)")
            let log = try #require(endpoints.eventLog)
            let events = try await call(log, request(params: ["after": 0, "limit": 10, "types": ["UserRegistered"]]))
            let traced = try #require(events.result?["events"]?.arrayValue?.first { $0["key"]?.stringValue == user.id }, "\(events)")
            #expect(traced["traceparent"]?.stringValue.flatMap(TraceContext.parse(traceparent:))?.traceId == traceId, "\(traced)")
        }
    }
}

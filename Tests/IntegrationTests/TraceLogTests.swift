import Foundation
import Testing
import SvcdTestSupport
import WireContract
import WireJSON
import WireTestSupport

/// svcd's log lines for a request carry its trace (`trace_id`: the caller's `traceparent`'s, or
/// one the request started) and svcd's span for it (`span_id`); a `traceparent` that is not
/// valid is ignored, never answered `malformed`.
@Suite struct TraceLogTests {
    @Test func theAnswersTraceLineCarriesTheCallersTraceIdAndAnInvalidTraceparentIsIgnored() async throws {
        try await withSvcd(seed: true, arguments: ["--log-level", "trace"]) { child in
            let address = try await child.endpoints().address(.getRestaurant)
            let traced = try await call(address, request(id: "traced", params: ["restaurantId": "r-000001"], extra: [
                ("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), ("tracestate", "vendor=1"),
            ]))
            #expect(traced.ok == true, "\(traced)")
            let garbage = try await call(address, request(id: "garbage", params: ["restaurantId": "r-000001"], extra: [
                ("traceparent", "not a trace context"),
            ]))
            #expect(garbage.ok == true, "an invalid traceparent is ignored: \(garbage)")

            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            var lines: [Substring] = []
            while lines.count < 2, ContinuousClock.now < deadline {
                lines = child.stderrText.split(separator: "\n").filter { $0.contains("request answered") && $0.contains("GetRestaurant") }
                if lines.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
            }
            try #require(lines.count >= 2, "\(child.stderrText.suffix(2000))")
            let tracedLine = try #require(lines.first { $0.contains("trace_id=0af7651916cd43dd8448eb211c80319c") }, "\(lines)")
            let spanId = try #require(Self.value(of: "span_id", in: tracedLine))
            #expect(spanId.count == 16 && spanId != "b7ad6b7169203331", "svcd's own span, child of the caller's: \(tracedLine)")
            // The other line started a trace of its own.
            let other = try #require(lines.first { !$0.contains("0af7651916cd43dd8448eb211c80319c") }, "\(lines)")
            let started = try #require(Self.value(of: "trace_id", in: other))
            #expect(started.count == 32 && started.allSatisfy(\.isHexDigit), "\(other)")
        }
    }

    /// The value of `key=value` in a log line.
    private static func value(of key: String, in line: Substring) -> String? {
        line.split(separator: " ").first { $0.hasPrefix("\(key)=") }.map { String($0.dropFirst(key.count + 1)) }
    }
}

import Testing
@testable import Transport
import WireContract

/// `traceparent` as svcd reads it (W3C Trace Context level 1): a valid value is kept with its
/// `tracestate`; an invalid one is ignored and never makes a request malformed.
@Suite struct TraceContextTests {
    private static let valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test func aValidTraceparentGivesItsTraceIdParentAndFlags() throws {
        let context = try #require(TraceContext.parse(traceparent: Self.valid))
        #expect(context.traceId == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(context.parentSpanId == 0x00f0_67aa_0ba9_02b7 && context.flags == 1)
        // A later version may add fields after the flags.
        #expect(TraceContext.parse(traceparent: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-later") != nil)
    }

    @Test(arguments: [
        "", "garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
    ])
    func anInvalidTraceparentIsNotATraceContext(_ text: String) {
        #expect(TraceContext.parse(traceparent: text) == nil)
    }

    @Test func aRequestKeepsAValidContextAndItsStateAndIgnoresAnInvalidOne() throws {
        let traced = try WireRequest.decode(Array("""
            {"v":1,"id":"t","params":{},"traceparent":"\(Self.valid)","tracestate":"vendor=1"}
            """.utf8))
        #expect(traced.trace?.traceId == "4bf92f3577b34da6a3ce929d0e0e4736" && traced.tracestate == "vendor=1")
        for member in [#""traceparent":"nonsense","tracestate":"vendor=1""#, #""traceparent":42"#, #""traceparent":null"#] {
            let request = try WireRequest.decode(Array(#"{"v":1,"id":"u","params":{},\#(member)}"#.utf8))
            #expect(request.id == "u" && request.trace == nil && request.tracestate == nil, "\(member)")
        }
    }

    @Test func aRequestWithoutContextStartsATraceOfItsOwn() {
        let first = RequestSpan(spanId: 0x1234, caller: nil), second = RequestSpan(spanId: 0x1235, caller: nil)
        let isLowerHex = { (text: String) in text.allSatisfy { "0123456789abcdef".contains($0) } }
        #expect(first.traceId.count == 32 && isLowerHex(first.traceId) && first.traceId != second.traceId)
        let metadata = Dictionary(uniqueKeysWithValues: first.logMetadata)
        #expect(metadata["trace_id"] == first.traceId && metadata["span_id"] == "0000000000001234")
        let continued = RequestSpan(spanId: 7, caller: TraceContext.parse(traceparent: Self.valid).map { CallerTrace(context: $0, tracestate: nil) })
        #expect(continued.traceId == "4bf92f3577b34da6a3ce929d0e0e4736")
    }
}

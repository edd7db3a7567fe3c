import WireContract

/// A valid `traceparent` and its `tracestate`, as a request carries them: boxed, so a request
/// without them (the common case) carries one empty reference and allocates nothing.
public final class CallerTrace: Sendable {
    /// The caller's context.
    public let context: TraceContext
    /// The caller's `tracestate`, as it came.
    public let tracestate: String?

    /// A trace of its parts.
    public init(context: TraceContext, tracestate: String?) {
        self.context = context
        self.tracestate = tracestate
    }
}

/// svcd's span for one request: a 64-bit id drawn by the endpoint's socket thread when the
/// request arrives (a few instructions; nothing is formatted unless a line is logged), and the
/// caller's trace context, if it sent a valid one. A request without one starts a trace whose id
/// is made from the span id. When spans are exported, the tracer's own ids replace both
/// (``exported(_:caller:)``), so the log lines name the spans a collector receives.
struct RequestSpan: Sendable {
    /// svcd's span id for the request, never 0.
    let spanId: UInt64
    /// The caller's context, when its `traceparent` was valid.
    let caller: CallerTrace?
    /// The trace id the tracer gave the request, when it exported its span.
    private var tracerTraceId: (high: UInt64, low: UInt64)? = nil

    /// The span of a request whose span id is `spanId`.
    init(spanId: UInt64, caller: CallerTrace?) {
        self.spanId = spanId
        self.caller = caller
    }

    /// The span the tracer made for a request, as its `traceparent` gives it (`context`'s
    /// parent id is the server span's id).
    static func exported(_ context: TraceContext, caller: CallerTrace?) -> RequestSpan {
        var span = RequestSpan(spanId: context.parentSpanId, caller: caller)
        span.tracerTraceId = (context.traceIdHigh, context.traceIdLow)
        return span
    }

    /// The trace id: the caller's, or one this request started.
    var traceId: String {
        if let tracerTraceId { return TraceContext.hex(tracerTraceId.high) + TraceContext.hex(tracerTraceId.low) }
        if let caller { return caller.context.traceId }
        let started = startedTraceId
        return TraceContext.hex(started.high) + TraceContext.hex(started.low)
    }

    /// The trace id of a trace this request started: two different mixes of the span id, unique
    /// as it is, and neither half equal to it.
    private var startedTraceId: (high: UInt64, low: UInt64) {
        (Self.mix(spanId ^ 0x9E37_79B9_7F4A_7C15) | 1, Self.mix(spanId ^ 0xD1B5_4A32_D192_ED03))
    }

    /// SplitMix64's finalizer: a bijection of 64-bit values.
    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// This span as the parent in a `traceparent` (version 00): what the events of the request's
    /// write carry. Sampled as the caller's flags say (a trace svcd started: not sampled).
    var traceparent: String {
        let flags: UInt8 = (caller?.context.flags ?? 0) & 1
        if let tracerTraceId {
            return TraceContext.traceparent(traceIdHigh: tracerTraceId.high, traceIdLow: tracerTraceId.low, spanId: spanId, flags: flags)
        }
        if let caller {
            return TraceContext.traceparent(traceIdHigh: caller.context.traceIdHigh, traceIdLow: caller.context.traceIdLow, spanId: spanId, flags: flags)
        }
        let started = startedTraceId
        return TraceContext.traceparent(traceIdHigh: started.high, traceIdLow: started.low, spanId: spanId, flags: flags)
    }

    /// The metadata every log line written while serving the request carries: `trace_id` and
    /// `span_id` (OpenTelemetry's names for log correlation).
    var logMetadata: [(String, String)] {
        [("trace_id", traceId), ("span_id", TraceContext.hex(spanId))]
    }
}

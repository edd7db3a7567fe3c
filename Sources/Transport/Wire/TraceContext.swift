/// A request's W3C Trace Context (level 1) as svcd reads it from the envelope's `traceparent`:
/// the trace the caller's request belongs to, the caller's span and the trace flags. An invalid
/// `traceparent` is ignored (the request then starts a trace of its own), never refused.
///
/// svcd gives every request a span id of its own (``RequestSpan``); its log lines written while
/// serving the request carry the trace id and that span id (``RequestSpan/logMetadata``).
public struct TraceContext: Sendable, Hashable {
    /// The trace id's first 8 bytes.
    public let traceIdHigh: UInt64
    /// The trace id's last 8 bytes.
    public let traceIdLow: UInt64
    /// The caller's span: the parent of svcd's span for the request.
    public let parentSpanId: UInt64
    /// The trace flags (bit 0: sampled).
    public let flags: UInt8

    /// The longest `tracestate` kept (W3C: 32 members of at most 256 characters; 512 is what
    /// implementations are asked to propagate at least).
    public static let maximumTracestateLength = 512

    /// A context of its parts.
    public init(traceIdHigh: UInt64, traceIdLow: UInt64, parentSpanId: UInt64, flags: UInt8) {
        self.traceIdHigh = traceIdHigh
        self.traceIdLow = traceIdLow
        self.parentSpanId = parentSpanId
        self.flags = flags
    }

    /// The context of a `traceparent` value, `nil` when it is not valid: `VV-T-P-FF` with a
    /// version of two lower-case hex digits other than `ff`, a trace id of 32 and a parent id of
    /// 16 lower-case hex digits, neither all zeros, and flags of two; version `00` is exactly 55
    /// characters, a later version may go on after a `-`.
    public static func parse(traceparent text: String) -> TraceContext? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 55, bytes[2] == dash, bytes[35] == dash, bytes[52] == dash,
              let version = hex(bytes[0..<2]), version != 0xFF,
              version != 0 || bytes.count == 55, bytes.count == 55 || bytes[55] == dash,
              let high = hex(bytes[3..<19]), let low = hex(bytes[19..<35]), high != 0 || low != 0,
              let parent = hex(bytes[36..<52]), parent != 0,
              let flags = hex(bytes[53..<55])
        else { return nil }
        return TraceContext(traceIdHigh: high, traceIdLow: low, parentSpanId: parent, flags: UInt8(flags))
    }

    /// The context as a `traceparent` value of version 00.
    public var traceparent: String {
        let flagDigits = String(flags, radix: 16)
        return "00-\(traceId)-\(Self.hex(parentSpanId))-\(flagDigits.count == 1 ? "0" + flagDigits : flagDigits)"
    }

    /// The trace id as 32 lower-case hex digits.
    public var traceId: String { Self.hex(traceIdHigh) + Self.hex(traceIdLow) }

    /// `value` as 16 lower-case hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static let dash = UInt8(ascii: "-")

    /// The value of up to 16 lower-case hex digits; `nil` for any other byte.
    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }
}

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
        // Mixed so the two halves differ; unique as the span id is.
        var mixed = spanId ^ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        return TraceContext.hex(mixed | 1) + TraceContext.hex(spanId)
    }

    /// This span as the parent in a `traceparent` (version 00): what the events of the request's
    /// write carry. Sampled as the caller's flags say (a trace svcd started: not sampled).
    var traceparent: String {
        let flags = caller?.context.flags ?? 0
        return "00-\(traceId)-\(TraceContext.hex(spanId))-\(flags & 1 == 1 ? "01" : "00")"
    }

    /// The metadata every log line written while serving the request carries: `trace_id` and
    /// `span_id` (OpenTelemetry's names for log correlation).
    var logMetadata: [(String, String)] {
        [("trace_id", traceId), ("span_id", TraceContext.hex(spanId))]
    }
}

import Tracing
import WireContract

/// A request's trace context as W3C Trace Context's two headers, the carrier that a tracer
/// extracts the caller's context from and injects svcd's span into (the envelope's members of
/// the same names, ``WireContract/WireEnvelope/Key/traceparent``).
struct TraceHeaders: Sendable {
    /// `traceparent`.
    var traceparent: String?
    /// `tracestate`.
    var tracestate: String?

    /// The caller's headers: its context as a version-00 `traceparent`, and its `tracestate`.
    init(_ caller: CallerTrace?) {
        traceparent = caller?.context.traceparent
        tracestate = caller?.tracestate
    }

    /// Reads the headers by their names.
    struct Reader: Extractor {
        func extract(key: String, from carrier: TraceHeaders) -> String? {
            switch key {
            case WireEnvelope.Key.traceparent.name: carrier.traceparent
            case WireEnvelope.Key.tracestate.name: carrier.tracestate
            default: nil
            }
        }
    }

    /// Writes the headers by their names.
    struct Writer: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout TraceHeaders) {
            switch key {
            case WireEnvelope.Key.traceparent.name: carrier.traceparent = value
            case WireEnvelope.Key.tracestate.name: carrier.tracestate = value
            default: break
            }
        }
    }
}

import Tracing
import WireContract

extension TraceHeaders {
    /// The caller's headers: its context as a version-00 `traceparent`, and its `tracestate`.
    init(_ caller: CallerTrace?) {
        self.init(traceparent: caller?.context.traceparent, tracestate: caller?.tracestate)
    }

    /// Reads the headers by their names, for a tracer's `extract`.
    struct Reader: Extractor {
        func extract(key: String, from carrier: TraceHeaders) -> String? { carrier[key] }
    }

    /// Writes the headers by their names, for a tracer's `inject`.
    struct Writer: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout TraceHeaders) { carrier[key] = value }
    }
}

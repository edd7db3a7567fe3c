import Tracing
import WireContract

/// The trace context a request carries: what the process's instrument (swift-distributed-
/// tracing's `InstrumentationSystem`, bootstrapped by the application, e.g. with swift-otel)
/// injects from the calling task's `ServiceContext`, as the envelope's `traceparent` and
/// `tracestate`.
enum OutgoingTrace {
    /// The calling task's context as injected; empty outside a traced task (one task-local read).
    static func current() -> TraceHeaders {
        var headers = TraceHeaders()
        guard let context = ServiceContext.current else { return headers }
        InstrumentationSystem.instrument.inject(context, into: &headers, using: Writer())
        return headers
    }

    /// Writes the headers by their names.
    struct Writer: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout TraceHeaders) { carrier[key] = value }
    }
}

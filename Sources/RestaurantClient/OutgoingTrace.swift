import Tracing
import WireContract

/// The trace context a request carries: what the process's instrument (swift-distributed-
/// tracing's `InstrumentationSystem`, bootstrapped by the application, e.g. with swift-otel)
/// injects from the calling task's `ServiceContext`, as the envelope's `traceparent` and
/// `tracestate`.
struct OutgoingTrace: Sendable {
    /// `traceparent`.
    var traceparent: String?
    /// `tracestate`.
    var tracestate: String?

    /// The calling task's context as injected; empty outside a traced task (one task-local read).
    static func current() -> OutgoingTrace {
        var trace = OutgoingTrace()
        guard let context = ServiceContext.current else { return trace }
        InstrumentationSystem.instrument.inject(context, into: &trace, using: Writer())
        return trace
    }

    /// Writes the two headers by their names.
    struct Writer: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout OutgoingTrace) {
            switch key {
            case WireEnvelope.Key.traceparent.name: carrier.traceparent = value
            case WireEnvelope.Key.tracestate.name: carrier.tracestate = value
            default: break
            }
        }
    }
}

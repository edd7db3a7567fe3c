/// A request's trace context as W3C Trace Context's two headers, by the names the envelope gives
/// them (``WireEnvelope/Key/traceparent``, ``WireEnvelope/Key/tracestate``): the carrier a
/// tracer extracts a caller's context from and injects a span into, on either side of the wire.
public struct TraceHeaders: Sendable, Hashable {
    /// `traceparent`.
    public var traceparent: String?
    /// `tracestate`.
    public var tracestate: String?

    /// The two headers.
    public init(traceparent: String? = nil, tracestate: String? = nil) {
        self.traceparent = traceparent
        self.tracestate = tracestate
    }

    /// The header named `name`; `nil` for a name that is neither (setting one is ignored).
    public subscript(name: String) -> String? {
        get {
            switch name {
            case WireEnvelope.Key.traceparent.name: traceparent
            case WireEnvelope.Key.tracestate.name: tracestate
            default: nil
            }
        }
        set {
            switch name {
            case WireEnvelope.Key.traceparent.name: traceparent = newValue
            case WireEnvelope.Key.tracestate.name: tracestate = newValue
            default: break
            }
        }
    }
}

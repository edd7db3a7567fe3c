import Tracing

/// The `ServiceContext` key of the tracer a request's store spans are started with.
private enum StoreTracerKey: ServiceContextKey {
    typealias Value = any Tracer
    static let nameOverride: String? = "svc-store-tracer"
}

extension ServiceContext {
    /// The tracer of the store's spans (``StoreSpan``) under the request whose context this is;
    /// `nil` when the request is not traced.
    public var storeTracer: (any Tracer)? {
        get { self[StoreTracerKey.self] }
        set { self[StoreTracerKey.self] = newValue }
    }
}

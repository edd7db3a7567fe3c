import Tracing

/// The tracer svcd's requests are traced with, when spans are exported (`svcd --otlp-endpoint`):
/// a server span per request and, under it, the time it queued and the store's work.
///
/// Any tracer of swift-distributed-tracing's API; the composition root gives swift-otel's. Each
/// request's server span is bound as the task's `ServiceContext` while its use case runs, with
/// this tracer beside it (``ServiceContext/storeTracer``), so the store's spans
/// (``StoreSpan``) become its children without any global tracer.
public struct RequestTracing: Sendable {
    /// The tracer.
    public let tracer: any Tracer
    /// The instance's name, on every server span (`svc.instance`).
    public let instance: String

    /// Tracing with `tracer`, naming the instance `instance`.
    public init(tracer: any Tracer, instance: String) {
        self.tracer = tracer
        self.instance = instance
    }
}

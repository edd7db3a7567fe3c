import Tracing

/// The tracer svcd's requests are traced with, when spans are exported (`svcd --otlp-endpoint`):
/// a server span per request and, under it, the time it queued and the store's work.
///
/// Which requests are traced is decided here, before the tracer is asked, so that a request
/// that is not (the caller's `traceparent` says "not sampled", or a trace svcd starts falls
/// outside ``samplingRatio``) costs nothing beyond the untraced path: a parent-based sampler,
/// with the ratio applied to svcd's own random span id. The tracer's own sampler should then
/// sample every span it is asked for (parent-based, always on).
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
    /// The share of the traces svcd starts itself that are traced, 0 to 1.
    public let samplingRatio: Double
    /// A root request is traced when its random span id is at most this.
    private let rootThreshold: UInt64

    /// Tracing with `tracer`, naming the instance `instance`, tracing `samplingRatio` of the
    /// traces svcd starts.
    public init(tracer: any Tracer, instance: String, samplingRatio: Double = 1) {
        self.tracer = tracer
        self.instance = instance
        self.samplingRatio = min(max(samplingRatio, 0), 1)
        rootThreshold = self.samplingRatio >= 1 ? .max : UInt64(self.samplingRatio * 0x1p64)
    }

    /// Whether a request is traced: as its caller's sampled flag says, when it came with a
    /// valid `traceparent` (`callerSampled`); else when its `spanId`, drawn uniformly at
    /// random, falls within ``samplingRatio``.
    @inlinable
    public func traces(callerSampled: Bool?, spanId: UInt64) -> Bool {
        callerSampled ?? (spanId <= rootThresholdValue)
    }

    /// ``rootThreshold``, for ``traces(callerSampled:spanId:)``.
    @usableFromInline
    var rootThresholdValue: UInt64 { rootThreshold }
}

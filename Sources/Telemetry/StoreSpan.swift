import Tracing

/// A span of the store's work (a transaction, a commit, a statement), a child of the span of
/// the request the current task serves. Without a traced request (no tracer in the task's
/// `ServiceContext`, see ``ServiceContext/storeTracer``) it costs one task-local read.
public enum StoreSpan {
    /// Whether the current task serves a traced request (its store spans are recorded).
    public static var isTraced: Bool { ServiceContext.current?.storeTracer != nil }

    /// Runs `body` in a client span named `name` (OpenTelemetry's database conventions:
    /// `db.system.name`, and `db.operation.name` when given), ended when `body` returns or
    /// throws; a thrown error marks the span failed.
    public static func measure<T>(
        _ name: String, system: String, operation: String? = nil,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        guard let context = ServiceContext.current, let tracer = context.storeTracer else {
            return try await body()
        }
        let span = tracer.startSpan(name, context: context, ofKind: .client)
        span.attributes["db.system.name"] = system
        if let operation { span.attributes["db.operation.name"] = operation }
        defer { span.end() }
        // The store's spans under this one (a commit under its write) become its children.
        var inner = span.context
        inner.storeTracer = tracer
        do {
            return try await ServiceContext.$current.withValue(inner) { try await body() }
        } catch {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }

    /// Records a span named `name` of work that ran from `start` to `end` elsewhere (on the
    /// store's commit thread, say), as a child of the current request's span.
    public static func record(_ name: String, system: String, from start: ContinuousClock.Instant, to end: ContinuousClock.Instant, attributes: [String: Int] = [:]) {
        guard let context = ServiceContext.current, let tracer = context.storeTracer else { return }
        let span = tracer.startSpan(name, context: context, ofKind: .internal, at: WallInstant(start))
        span.attributes["db.system.name"] = system
        for (key, value) in attributes { span.attributes[key] = value }
        span.end(at: WallInstant(end))
    }
}

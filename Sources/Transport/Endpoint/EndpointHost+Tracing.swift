import Telemetry
import Tracing
import WireContract
import WireJSON

extension EndpointHost {
    /// The reply to `inbound`, which `tracing` traces, in a server span of its tracer: a child of
    /// the caller's span when it sent a valid `traceparent`, else the root of a new trace; named
    /// by the use case, from the
    /// request's arrival to its answer. Under it: `queued`, the time it waited for its turn, and
    /// the store's spans (``Telemetry/StoreSpan``), which find the span and the tracer in the
    /// task's `ServiceContext`. The log lines and the events of the request name this span.
    ///
    /// Attributes: `svc.caller`, `svc.reply.code` (`ok` or the error code), `svc.instance`,
    /// `svc.idempotency.replay`, and OpenTelemetry's RPC conventions (`rpc.system`,
    /// `rpc.service`, `rpc.method`); a reply other than `ok` sets the span's status to error.
    nonisolated(nonsending) func tracedReply(to inbound: InboundRequest, tracing: RequestTracing, writer: inout JSONWriter) async -> OutboundReply {
        let tracer = tracing.tracer
        var parent = ServiceContext.topLevel
        if let caller = inbound.request.callerTrace {
            tracer.extract(TraceHeaders(caller), into: &parent, using: TraceHeaders.Reader())
        }
        let received = WallInstant(EndpointClock.instant(inbound.receivedAt))
        let span = tracer.startSpan(useCaseName, context: parent, ofKind: .server, at: received)
        tracer.startSpan(Self.queuedSpanName, context: span.context, ofKind: .internal, at: received).end()
        var headers = TraceHeaders()
        tracer.inject(span.context, into: &headers, using: TraceHeaders.Writer())
        let exported = headers.traceparent.flatMap(TraceContext.parse(traceparent:))
        let requestSpan = exported.map { RequestSpan.exported($0, caller: inbound.request.callerTrace) } ?? inbound.span
        var context = span.context
        context.storeTracer = tracer
        var replayed = false
        let reply = await ServiceContext.$current.withValue(context) {
            // Only a write appends events, which carry the span as their parent.
            guard isWrite else { return await answer(inbound, span: requestSpan, replayed: &replayed, writer: &writer) }
            return await WriterTrace.$traceparent.withValue(headers.traceparent ?? requestSpan.traceparent) {
                await answer(inbound, span: requestSpan, replayed: &replayed, writer: &writer)
            }
        }
        span.attributes[SpanAttributeName.rpcSystem] = Self.rpcSystem
        span.attributes[SpanAttributeName.rpcService] = Self.rpcService
        span.attributes[SpanAttributeName.rpcMethod] = useCaseName
        span.attributes[SpanAttributeName.caller] = callerName(inbound.caller)
        span.attributes[SpanAttributeName.replyCode] = reply.outcome?.rawValue ?? SpanAttributeName.ok
        span.attributes[SpanAttributeName.instance] = tracing.instance
        span.attributes[SpanAttributeName.idempotencyReplay] = replayed
        if let outcome = reply.outcome {
            span.setStatus(SpanStatus(code: .error, message: outcome.rawValue))
        }
        span.end()
        return reply
    }

    /// The name of the span of the time a request waited for its turn.
    static let queuedSpanName = "queued"
    /// `rpc.system` of the server spans.
    static let rpcSystem = "zeromq"
    /// `rpc.service` of the server spans.
    static let rpcService = "svcd"
}

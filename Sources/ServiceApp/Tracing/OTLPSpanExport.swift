import Logging
import ServiceLifecycle
import Telemetry
#if OTLP
import OTel
#endif

/// The span exporter of ``TracingConfiguration``: swift-otel's tracing backend (OTLP/HTTP,
/// protobuf; a batch span processor, so a request only queues its finished span and a collector
/// that is down or hangs costs failed exports and their warnings, never a request's time) and
/// the service that runs its export in the service group. swift-otel's metrics and logs stay
/// off: svcd's Prometheus registry and log handler are its own.
enum OTLPSpanExport {
    /// The tracing of requests and its export service, for `configuration`; the spans name the
    /// instance `instance`. Warnings of failed exports go to `logger`.
    static func make(_ configuration: TracingConfiguration, instance: String, logger: Logger) throws -> (tracing: RequestTracing, service: any Service) {
        #if OTLP
        var otel = OTel.Configuration.default
        otel.serviceName = configuration.serviceName
        otel.resourceAttributes = ["service.instance.id": instance]
        otel.diagnosticLogger = .custom(logger)
        otel.diagnosticLogLevel = .warning
        otel.propagators = [.traceContext]
        otel.logs.enabled = false
        otel.metrics.enabled = false
        otel.traces.enabled = true
        otel.traces.exporter = .otlp
        otel.traces.otlpExporter.endpoint = configuration.tracesURL
        otel.traces.otlpExporter.protocol = .httpProtobuf
        // A batch a second (the SDK's default is 5 s): spans reach the collector while the
        // operator still looks at the request; OTEL_BSP_SCHEDULE_DELAY overrides it.
        otel.traces.batchSpanProcessor.scheduleDelay = .seconds(1)
        // A collector that hangs holds a batch (and svcd's stop, which flushes the last one) for
        // this long at most, not the SDK's 10 s per request and 30 s per batch.
        otel.traces.otlpExporter.timeout = Self.exportTimeout
        otel.traces.batchSpanProcessor.exportTimeout = Self.exportTimeout
        // svcd decides which requests are traced before it asks the tracer (RequestTracing), so
        // that a request not sampled costs nothing; the tracer samples whatever it is given.
        otel.traces.sampler = .parentBasedAlwaysOn
        let backend = try OTel.makeTracingBackend(configuration: otel)
        return (RequestTracing(tracer: backend.factory, instance: instance, samplingRatio: configuration.samplingRatio), backend.service)
        #else
        throw TracingUnavailable()
        #endif
    }

    /// The longest one export may take (OTEL_EXPORTER_OTLP_TIMEOUT and OTEL_BSP_EXPORT_TIMEOUT
    /// override it).
    static let exportTimeout: Duration = .seconds(3)
}

/// svcd was built without the OTLP trait, so it cannot export spans.
public struct TracingUnavailable: Error, CustomStringConvertible {
    public var description: String {
        "this svcd was built without span export (the package's OTLP trait); build it with the default traits to use --otlp-endpoint"
    }
}

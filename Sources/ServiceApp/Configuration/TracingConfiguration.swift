/// Span export over OTLP/HTTP (``ServiceConfiguration/tracing``): where to, and which traces.
///
/// The OpenTelemetry SDK's environment variables (`OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`,
/// `OTEL_TRACES_SAMPLER_ARG`, `OTEL_BSP_*`, `OTEL_EXPORTER_OTLP_*`), when set, override these
/// values: swift-otel reads them when the exporter is made.
public struct TracingConfiguration: Sendable, Hashable {
    /// The collector's base URL (`http://HOST:4318`); spans go to it + `/v1/traces`.
    public var endpoint: String
    /// The share of the traces svcd starts itself that it samples, from 0 to 1 (default 1). A
    /// request whose `traceparent` came decides by its sampled flag instead.
    public var samplingRatio: Double = 1
    /// The service's name on its spans (`service.name`).
    public var serviceName: String = "svcd"

    /// Export to the collector at `endpoint`.
    public init(endpoint: String, samplingRatio: Double = 1) {
        self.endpoint = endpoint
        self.samplingRatio = samplingRatio
    }

    /// Where the spans are posted: ``endpoint`` + `/v1/traces`.
    public var tracesURL: String {
        endpoint.hasSuffix("/") ? endpoint + "v1/traces" : endpoint + "/v1/traces"
    }
}

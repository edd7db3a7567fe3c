import NIOHTTP1
import Transport

/// What the monitoring HTTP listener answers, by method and path, independent of the
/// connection it came on.
///
/// - `GET /metrics`: the Prometheus exposition text of ``ServiceMetrics``;
/// - `GET /healthz`: 200 while the process serves;
/// - `GET /readyz`: 200 while the use cases accept requests and the store answers a trivial
///   read, 503 while draining or shutting down or when the store does not answer;
/// - any other path 404; another method on a known path 405.
struct MonitoringRoutes: Sendable {
    /// One answer: status, content type and body.
    struct Response: Sendable {
        let status: HTTPResponseStatus
        let contentType: String
        let body: String
        /// Methods the path allows, for a 405's `Allow` header.
        var allow: String?
    }

    /// The content type of the Prometheus text exposition format.
    static let prometheusContentType = "text/plain; version=0.0.4; charset=utf-8"
    private static let plainText = "text/plain; charset=utf-8"
    private static let paths: Set<String> = ["/metrics", "/healthz", "/readyz"]

    let metrics: ServiceMetrics
    let availability: ServiceAvailability
    let store: ServiceStore

    /// The answer to `method` on `uri` (its query, if any, is ignored).
    func respond(method: HTTPMethod, uri: String) async -> Response {
        let path = String(uri.prefix { $0 != "?" })
        guard Self.paths.contains(path) else {
            return Response(status: .notFound, contentType: Self.plainText, body: "not found: \(path)\n")
        }
        guard method == .GET else {
            return Response(status: .methodNotAllowed, contentType: Self.plainText, body: "method not allowed\n", allow: "GET")
        }
        switch path {
        case "/metrics":
            return Response(status: .ok, contentType: Self.prometheusContentType, body: metrics.exposition())
        case "/healthz":
            return Response(status: .ok, contentType: Self.plainText, body: "ok\n")
        default:
            return await readiness()
        }
    }

    /// 200 while accepting requests with a store that answers, else 503 and why.
    private func readiness() async -> Response {
        switch availability.state {
        case .available:
            break
        case .draining:
            return Response(status: .serviceUnavailable, contentType: Self.plainText, body: "draining\n")
        case .shuttingDown:
            return Response(status: .serviceUnavailable, contentType: Self.plainText, body: "shutting down\n")
        }
        do {
            try await store.ping()
            return Response(status: .ok, contentType: Self.plainText, body: "ready\n")
        } catch {
            return Response(status: .serviceUnavailable, contentType: Self.plainText, body: "store not answering: \(error)\n")
        }
    }
}

import Logging
import Metrics
import ServiceLifecycle
import WireJSON
import ZeroMQ

/// Answers one admin request; throws a `WireError` (or any error, answered `internal`).
public typealias AdminHandler = @Sendable (AdminRequest) async throws -> JSONValue

/// The admin endpoint: a ``RouterEndpoint`` like every use case's, with CURVE, whose handler
/// (``AdminHost``) runs admin operations. It lives in a ZeroMQ context of its own, on its own
/// thread, so it answers even when every use case is saturated, and with a ``ZAPAuthenticator``
/// of its own in that context that admits only the client public keys listed in the allow-list
/// file (read at every handshake, so keys added by `svcctl keygen` work at once). Plaintext
/// peers and unknown keys get no connection at all. (The ZAP handler of a context sees every
/// socket in it: the use-case endpoints must not be subject to the admin allow-list.)
///
/// Draining does not apply to it: the operator resumes through it.
public final class AdminEndpoint: Service, Sendable {
    /// The endpoint's name in logs, thread names and bind failures.
    public static let name = "admin"

    private let context: ZMQContext
    private let authenticator: ZAPAuthenticator
    private let endpoint: RouterEndpoint

    /// The admin endpoint's limits: messages of at most 64 KiB (admin requests are small), 256
    /// operations in flight and libzmq's default high-water marks; otherwise those of the
    /// use-case endpoints.
    static var configuration: EndpointConfiguration {
        var configuration = EndpointConfiguration()
        configuration.maxMessageSize = 64 * 1024
        configuration.maxInFlight = 256
        configuration.sendHighWaterMark = 1000
        configuration.receiveHighWaterMark = 1000
        return configuration
    }

    /// An endpoint that will bind `address` as CURVE server with `serverSecretKey` (Z85).
    public init(address: String, serverSecretKey: String, authorizedKeysPath: String, handler: @escaping AdminHandler, logger: Logger) throws {
        let context = try ZMQContext()
        var configuration = Self.configuration
        configuration.curveServerSecretKey = serverSecretKey
        // Its figures are not the use cases': none of them reaches the service's metrics.
        let metrics = NOOPMetricsHandler.instance
        self.context = context
        authenticator = ZAPAuthenticator(
            allowed: ClientKeyList(path: authorizedKeysPath), guarding: "the admin endpoint", logger: logger, metrics: metrics
        )
        endpoint = try RouterEndpoint(
            name: Self.name, context: context, ownsContext: true, address: address, configuration: configuration,
            availability: ServiceAvailability(), counters: EndpointCounters(useCase: Self.name, metrics: metrics),
            statistics: StatisticsRecorder(useCase: Self.name, metrics: metrics), handshakeMonitor: nil, logger: logger
        ) { outbox, _ in
            AdminHost(handler: handler, outbox: outbox, logger: logger)
        }
    }

    /// Binds the ZAP handler, then starts the admin thread, which creates the socket and binds;
    /// returns the bound address.
    public func start() async throws -> String {
        // The handler first: a CURVE endpoint bound without one would admit any client key.
        try await authenticator.start(in: context, watching: [])
        return try await endpoint.start()
    }

    /// Serves admin requests until graceful shutdown, answers those in flight, then closes the
    /// socket and terminates the context.
    public func run() async throws {
        await endpoint.run()
    }

    /// Closes the socket without serving; for an endpoint whose `run()` never started.
    public func abort() {
        endpoint.abort()
    }
}

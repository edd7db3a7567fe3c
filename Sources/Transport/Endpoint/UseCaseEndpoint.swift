import Logging
import Metrics
import ServiceLifecycle
import Telemetry
import WireContract
import ZeroMQ

/// One use case behind its own ZeroMQ ROUTER endpoint: a ``RouterEndpoint`` (a dedicated thread
/// owns the socket) whose handler is an ``EndpointHost`` running the use case; batches and
/// replies cross between them without blocking either.
///
/// `start()` binds (on the thread) and returns the bound address; `run()` serves until graceful
/// shutdown, then answers what is in flight and closes.
public final class UseCaseEndpoint: Service, Sendable {
    /// The hosted use case.
    public let name: UseCaseName
    /// Transport counts (in flight, dropped replies, transport-level rejections).
    public var counters: EndpointCounters { endpoint.counters }

    private let endpoint: RouterEndpoint

    /// Creates an endpoint that will bind `address` (e.g. `tcp://127.0.0.1:7101`). Its
    /// swift-metrics counters, gauge and timer come from `metrics` (by default the process-wide
    /// `MetricsSystem.factory`). With a `readExecutor`, reads that wait for the database
    /// (``ServingPath/waitingRead``) run on its threads, in the lane of this use
    /// case (``BlockingReadExecutor/lane(named:)``), instead of the global concurrent executor.
    /// With `callers`, each request's caller is checked (with `--client-keys`: listed, allowed
    /// this use case, within its rate) and counted. With `tracing`, each request runs in a span
    /// of its tracer (see ``RequestTracing``).
    public init(
        route: UseCaseRoute, address: String, context: ZMQContext, configuration: EndpointConfiguration,
        availability: ServiceAvailability, logger: Logger, metrics: any MetricsFactory = MetricsSystem.factory,
        readExecutor: BlockingReadExecutor? = nil, callers: CallerDirectory? = nil, tracing: RequestTracing? = nil
    ) throws {
        name = route.name
        let readLane = readExecutor?.lane(named: route.name.rawValue)
        endpoint = try RouterEndpoint(
            name: route.name.rawValue, context: context, address: address, configuration: configuration, availability: availability,
            counters: EndpointCounters(useCase: route.name.rawValue, metrics: metrics),
            statistics: StatisticsRecorder(useCase: route.name.rawValue, metrics: metrics, callers: callers),
            handshakeMonitor: ZAPAuthenticator.handshakeMonitor(for: route.name.rawValue),
            gate: callers.map { CallerGate(directory: $0, permission: route.name.rawValue) }, logger: logger
        ) { outbox, executor in
            EndpointHost(
                route: route, outbox: outbox, executor: executor,
                readLane: readLane, queueTimeTarget: configuration.queueTimeTarget, logger: logger, callers: callers,
                tracing: tracing
            )
        }
    }

    /// Starts the socket thread, which creates and binds the socket; returns the bound address.
    public func start() async throws -> String {
        try await endpoint.start()
    }

    /// Serves requests until graceful shutdown; then refuses new ones with `unavailable`,
    /// answers those in flight, closes the socket and returns.
    public func run() async {
        await endpoint.run()
    }

    /// What this endpoint has answered since it was created: requests by outcome (including
    /// those the transport refused itself), the requests in flight now, the replies dropped for
    /// vanished peers and latency percentiles.
    ///
    /// Safe from any thread at any time: it copies the recorded state under a lock the socket
    /// thread holds only while it records a batch, and never waits for that thread to be idle.
    /// A request is counted before its reply is sent, so a client that has its reply finds it
    /// counted.
    public func statistics() -> UseCaseStatistics {
        endpoint.statistics.snapshot(inFlight: counters.inFlight, droppedReplies: counters.droppedReplies)
    }

    /// Closes the socket without serving what is queued; for an endpoint whose `run()` never
    /// started (e.g. start-up failed elsewhere).
    public func abort() {
        endpoint.abort()
    }
}

import Domain
import Logging
import Metrics
import ServiceLifecycle
import WireContract
import ZeroMQ

/// The event log endpoint (`tcp://H:N+51`): a ``RouterEndpoint`` like a use case's, speaking the
/// wire v1 envelope, whose handler (``EventLogHost``) answers ``ReadEventLog``. It shares the
/// use-case endpoints' ZeroMQ context, so with `--client-keys` it is a CURVE server with the same
/// allow-list; and it has its own ``ServiceAvailability``, so it serves the whole log also while
/// the use cases are drained (a consumer catching up needs it most then).
///
/// `start()` binds (on the thread) and returns the bound address; `run()` serves until graceful
/// shutdown, then answers what is in flight and closes.
public final class EventLogEndpoint: Service, Sendable {
    /// Transport counts (in flight, dropped replies, transport-level rejections).
    public var counters: EndpointCounters { endpoint.counters }

    private let endpoint: RouterEndpoint

    /// An endpoint that will bind `address` in `context` with `configuration` (the use-case
    /// endpoints'), answering with `readEventLog`. Its metrics carry the label
    /// `use_case="EventLog"`. With `callers`, each request's caller is checked (with
    /// `--client-keys`: listed, allowed `events`, within its rate) and counted.
    public init(
        readEventLog: ReadEventLog, address: String, context: ZMQContext, configuration: EndpointConfiguration, logger: Logger,
        metrics: any MetricsFactory = MetricsSystem.factory, callers: CallerDirectory? = nil
    ) throws {
        let name = WireEvent.logName
        endpoint = try RouterEndpoint(
            name: name, context: context, address: address, configuration: configuration, availability: ServiceAvailability(),
            counters: EndpointCounters(useCase: name, metrics: metrics), statistics: StatisticsRecorder(useCase: name, metrics: metrics, callers: callers),
            handshakeMonitor: ZAPAuthenticator.handshakeMonitor(for: name),
            gate: callers.map { CallerGate(directory: $0, permission: CallerGrant.events) }, logger: logger
        ) { outbox, _ in
            EventLogHost(readEventLog: readEventLog, outbox: outbox, logger: logger)
        }
    }

    /// Starts the socket thread, which creates and binds the socket; returns the bound address.
    public func start() async throws -> String {
        try await endpoint.start()
    }

    /// Serves until graceful shutdown; then answers those in flight, closes and returns.
    public func run() async {
        await endpoint.run()
    }

    /// What this endpoint has answered, as a use case's statistics.
    public func statistics() -> UseCaseStatistics {
        endpoint.statistics.snapshot(inFlight: counters.inFlight, droppedReplies: counters.droppedReplies)
    }

    /// Closes the socket without serving; for an endpoint whose `run()` never started.
    public func abort() {
        endpoint.abort()
    }
}

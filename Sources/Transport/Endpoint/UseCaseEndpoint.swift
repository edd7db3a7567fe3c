import Foundation
import Logging
import Metrics
import ServiceLifecycle
import WireContract
import ZeroMQ

/// One use case behind its own ZeroMQ ROUTER endpoint: a dedicated thread owns the socket, a
/// task runs the use case, and batches and replies cross between them without blocking either.
///
/// `start()` binds (on the thread) and returns the bound address; `run()` serves until graceful
/// shutdown, then answers what is in flight and closes.
public final class UseCaseEndpoint: Service, Sendable {
    /// The hosted use case.
    public let name: UseCaseName
    /// Transport counts (in flight, dropped replies, transport-level rejections).
    public let counters: EndpointCounters

    private let context: ZMQContext
    private let address: String
    private let configuration: EndpointConfiguration
    private let availability: ServiceAvailability
    private let logger: Logger
    private let outbox: ReplyOutbox
    private let executor: SocketThreadExecutor
    private let control = EndpointControl()
    private let statisticsRecorder: StatisticsRecorder
    private let host: EndpointHost
    private let requests: AsyncStream<[InboundRequest]>
    private let deliver: AsyncStream<[InboundRequest]>.Continuation

    /// Creates an endpoint that will bind `address` (e.g. `tcp://127.0.0.1:7101`). Its
    /// swift-metrics counters, gauge and timer come from `metrics` (by default the process-wide
    /// `MetricsSystem.factory`).
    public init(
        route: UseCaseRoute, address: String, context: ZMQContext, configuration: EndpointConfiguration,
        availability: ServiceAvailability, logger: Logger, metrics: any MetricsFactory = MetricsSystem.factory
    ) throws {
        self.name = route.name
        self.counters = EndpointCounters(useCase: route.name.rawValue, metrics: metrics)
        self.statisticsRecorder = StatisticsRecorder(useCase: route.name.rawValue, metrics: metrics)
        self.context = context
        self.address = address
        self.configuration = configuration
        self.availability = availability
        self.logger = logger
        self.outbox = try ReplyOutbox()
        self.executor = SocketThreadExecutor(outbox: outbox)
        self.host = EndpointHost(route: route, outbox: outbox, executor: executor, concurrentReads: configuration.concurrentReads, logger: logger)
        // Unbounded here is bounded in effect: the socket thread admits at most maxInFlight
        // requests that have not been answered yet.
        (self.requests, self.deliver) = AsyncStream.makeStream(of: [InboundRequest].self, bufferingPolicy: .unbounded)
    }

    /// Starts the socket thread, which creates and binds the socket; returns the bound address.
    public func start() async throws -> String {
        try await withCheckedThrowingContinuation { (bound: CheckedContinuation<String, any Error>) in
            let thread = Thread { [self] in
                // Named from inside: on Linux only the running thread's own name reaches the
                // kernel, where perf and top -H show it; and only if it fits in 15 bytes
                // (longer names were dropped, e.g. "zmq-GetRestaurant"), hence the cut.
                Thread.current.name = String("zmq-\(name.rawValue)".utf8.prefix(15))
                let loop: SocketLoop
                do {
                    loop = try SocketLoop(
                        context: context, address: address, configuration: configuration, outbox: outbox,
                        executor: executor, control: control, availability: availability, counters: counters,
                        statistics: statisticsRecorder, deliver: deliver, logger: logger,
                        handshakeMonitor: ZAPAuthenticator.handshakeMonitor(for: name.rawValue)
                    )
                } catch {
                    executor.close()
                    deliver.finish()
                    bound.resume(throwing: error)
                    return
                }
                bound.resume(returning: loop.boundEndpoint)
                loop.run()
            }
            thread.start()
        }
    }

    /// Serves requests until graceful shutdown; then refuses new ones with `unavailable`,
    /// answers those in flight, closes the socket and returns.
    public func run() async {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                // On the socket thread, between its polls: see SocketThreadExecutor.
                await withTaskExecutorPreference(executor) {
                    await host.serve(requests)
                }
            } onGracefulShutdown: { [availability, control, outbox] in
                // The group shuts services down one after another; refusing new requests on
                // every endpoint at the first signal keeps the others from taking new writes.
                availability.beginShutdown()
                control.request(.stopping)
                outbox.wake()
            }
        } onCancel: { [control, outbox] in
            control.request(.aborting)
            outbox.wake()
        }
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
        statisticsRecorder.snapshot(inFlight: counters.inFlight, droppedReplies: counters.droppedReplies)
    }

    /// Closes the socket without serving what is queued; for an endpoint whose `run()` never
    /// started (e.g. start-up failed elsewhere).
    public func abort() {
        control.request(.aborting)
        outbox.wake()
    }
}

import Foundation
import Logging
import ServiceLifecycle
import ZeroMQ

/// One ROUTER endpoint: a dedicated thread that owns the socket and serves it with the one
/// ``SocketLoop``, and a ``RequestHandler`` that answers what the thread accepts. Every use-case
/// endpoint (``EndpointHost``) and the admin endpoint (``AdminHost``) is one of these; they
/// differ only in the handler and the configuration they are given. CURVE is part of the
/// configuration (``EndpointConfiguration/curveServerSecretKey``), not another loop.
///
/// `start()` binds (on the thread) and returns the bound address; `run()` serves until graceful
/// shutdown, then refuses new requests with `unavailable`, answers those in flight, closes the
/// socket and returns.
final class RouterEndpoint: Sendable {
    /// Transport counts (in flight, dropped replies, transport-level rejections).
    let counters: EndpointCounters
    /// Answered requests by outcome, and their latency.
    let statistics: StatisticsRecorder

    private let name: String
    private let context: ZMQContext
    private let ownsContext: Bool
    private let address: String
    private let configuration: EndpointConfiguration
    private let availability: ServiceAvailability
    private let handshakeMonitor: String?
    private let gate: CallerGate?
    private let logger: Logger
    private let outbox: ReplyOutbox
    private let executor: SocketThreadExecutor
    private let control = EndpointControl()
    private let handler: any RequestHandler
    private let requests = RequestBatches()

    /// An endpoint named `name` (its thread is `zmq-<name>`) that will bind `address` in
    /// `context`. With `ownsContext`, the thread terminates the context once its socket is
    /// closed. `handshakeMonitor`: where a CURVE endpoint publishes its failed handshakes (see
    /// ``ZAPAuthenticator/handshakeMonitor(for:)``). `gate`: the callers checked per request
    /// (`nil`: none, the admin endpoint). `makeHandler` is given the endpoint's outbox and
    /// socket-thread executor.
    init(
        name: String, context: ZMQContext, ownsContext: Bool = false, address: String, configuration: EndpointConfiguration,
        availability: ServiceAvailability, counters: EndpointCounters, statistics: StatisticsRecorder, handshakeMonitor: String?,
        gate: CallerGate? = nil, logger: Logger, makeHandler: (ReplyOutbox, SocketThreadExecutor) -> any RequestHandler
    ) throws {
        self.name = name
        self.context = context
        self.ownsContext = ownsContext
        self.address = address
        self.configuration = configuration
        self.availability = availability
        self.counters = counters
        self.statistics = statistics
        self.handshakeMonitor = handshakeMonitor
        self.gate = gate
        self.logger = logger
        let outbox = try ReplyOutbox()
        let executor = SocketThreadExecutor(outbox: outbox)
        self.outbox = outbox
        self.executor = executor
        handler = makeHandler(outbox, executor)
    }

    /// Starts the socket thread, which creates and binds the socket; returns the bound address.
    func start() async throws -> String {
        // Cut to 15 bytes: "zmq-GetRestaura".
        try await DedicatedThread.start(named: "zmq-\(name)") { [self] () throws -> (SocketLoop, String) in
            do {
                let loop = try SocketLoop(
                    context: context, ownsContext: ownsContext, address: address, configuration: configuration, outbox: outbox,
                    executor: executor, control: control, availability: availability, counters: counters,
                    statistics: statistics, deliver: requests, logger: logger, handshakeMonitor: handshakeMonitor, gate: gate
                )
                return (loop, loop.boundEndpoint)
            } catch {
                if ownsContext { context.terminate() }
                executor.close()
                requests.finish()
                throw error
            }
        } serve: { loop in
            loop.run()
        }
    }

    /// Serves requests until graceful shutdown; then refuses new ones with `unavailable`,
    /// answers those in flight, closes the socket and returns.
    func run() async {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                // On the socket thread, between its polls: see SocketThreadExecutor.
                await withTaskExecutorPreference(executor) {
                    await handler.serve(requests)
                }
            } onGracefulShutdown: { [availability, control, outbox] in
                // Endpoints run as separate services are shut down one after another; refusing
                // new requests on every endpoint at the first signal keeps the others from
                // taking new writes meanwhile. (svcd runs them as one UseCaseEndpointGroup.)
                availability.beginShutdown()
                control.request(.stopping)
                outbox.wake()
            }
        } onCancel: { [control, outbox] in
            control.request(.aborting)
            outbox.wake()
        }
    }

    /// Closes the socket without serving what is queued; for an endpoint whose `run()` never
    /// started (e.g. start-up failed elsewhere).
    func abort() {
        control.request(.aborting)
        outbox.wake()
    }
}

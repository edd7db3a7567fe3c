import Domain
import Logging
import Metrics
import ServiceLifecycle
import Synchronization
import WireContract
import WireJSON
import ZeroMQ

/// The live event stream (`tcp://H:N+50`): a PUB socket on a thread of its own
/// (``EventStreamLoop``) that publishes every event of the log in seq order, each as two frames,
/// the type and the event's JSON, so subscribers filter by type with ZeroMQ subscriptions.
///
/// A publishing task follows the log (``EventRepository/nextEvents(after:limit:)``: on SQLite and
/// in memory the events handed over at each commit, on PostgreSQL the events any instance wrote,
/// read back once numbered) from where it stood at start, and hands each batch to the thread.
/// While no subscriber is connected it reads and sends nothing (on PostgreSQL every instance
/// would otherwise read every event of the cluster back), only keeping its position at the log's
/// end.
/// Delivery on the stream alone is best-effort: a subscriber whose queue is full misses messages
/// and reads them from the event log, and nobody waits for it.
///
/// It shares the use-case endpoints' ZeroMQ context, so with `--client-keys` it is a CURVE server
/// with the same allow-list. `start()` binds and returns the bound address; `run()` publishes
/// until graceful shutdown, then publishes what was committed up to then and closes.
public final class EventStreamEndpoint: Service, Sendable {
    /// Events handed to the thread at once, at most.
    static let batchSize = 1000
    /// How long the stream may go on at shutdown to publish what was committed before it.
    static let finishingTime: Duration = .seconds(2)
    /// How often a stream without subscribers looks whether one has come.
    static let idleLook: Duration = .milliseconds(100)

    private let events: any EventRepository
    private let lastWritten: @Sendable () -> Int64
    private let clock: any WallClock
    private let context: ZMQContext
    private let address: String
    private let configuration: EndpointConfiguration
    private let logger: Logger
    private let outbox: EventStreamOutbox
    private let recorder: EventStreamRecorder
    /// Where publishing starts (the log's last seq when the stream was started).
    private let startSeq = Mutex<Int64>(0)
    private let stopped = Mutex<CheckedContinuation<Void, Never>?>(nil)
    /// Set at graceful shutdown: the seq publishing goes on to before it stops.
    private let finalSeq = Mutex<Int64?>(nil)
    private let threadEnded = Atomic<Bool>(false)

    /// A stream that will bind `address` in `context` with `configuration` (the use-case
    /// endpoints': high-water mark, heartbeats, CURVE), publishing `events`. `lastWritten` tells
    /// how far the log goes as this instance knows it, without waiting (statistics); `clock`
    /// times the lag from write to publication.
    public init(
        events: any EventRepository, lastWritten: @escaping @Sendable () -> Int64, address: String, context: ZMQContext,
        configuration: EndpointConfiguration, clock: any WallClock, logger: Logger, metrics: any MetricsFactory = MetricsSystem.factory
    ) throws {
        self.events = events
        self.lastWritten = lastWritten
        self.clock = clock
        self.context = context
        self.address = address
        self.configuration = configuration
        self.logger = logger
        outbox = try EventStreamOutbox()
        recorder = EventStreamRecorder(metrics: metrics)
    }

    /// Reads where the log ends (publishing starts after it), starts the socket thread, which
    /// creates and binds the socket; returns the bound address.
    public func start() async throws -> String {
        let start = try await events.lastSeq()
        startSeq.withLock { $0 = start }
        recorder.starting(at: start)
        return try await DedicatedThread.start(named: "zmq-events") { [self] () throws -> (EventStreamLoop, String) in
            let loop = try EventStreamLoop(
                context: context, address: address, configuration: configuration, outbox: outbox, recorder: recorder, logger: logger
            )
            return (loop, loop.boundEndpoint)
        } serve: { [self] loop in
            loop.run()
            threadEnded.store(true, ordering: .releasing)
            stopped.withLock { $0.take() }?.resume()
        }
    }

    /// Publishes until graceful shutdown; then publishes what the log holds up to then (for at
    /// most ``finishingTime``), closes the socket and returns.
    public func run() async {
        let publishing = Task { [self] in await publish() }
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await publishing.value
            } onCancel: {
                publishing.cancel()
            }
        } onGracefulShutdown: { [self] in
            let final = lastWritten()
            finalSeq.withLock { $0 = final }
            // Caught up already: the task may be waiting for events that will not come.
            if recorder.lastPublished >= final {
                publishing.cancel()
                return
            }
            Task {
                try? await Task.sleep(for: Self.finishingTime)
                publishing.cancel()
            }
        }
        await stopThread()
    }

    /// The stream's figures now.
    public func statistics() -> EventStreamStatistics {
        recorder.snapshot(lastWritten: lastWritten())
    }

    /// Closes the socket without publishing; for a stream whose `run()` never started.
    public func abort() {
        outbox.stop()
    }

    /// Follows the log and hands each batch to the thread, until cancelled or, once ``finalSeq``
    /// is set, until it has published up to it.
    private func publish() async {
        var last = startSeq.withLock { $0 }
        var writer = JSONWriter(capacity: 1024)
        while !Task.isCancelled {
            if let final = finalSeq.withLock({ $0 }), last >= final { return }
            if recorder.subscriberCount == 0 {
                // Nobody listens: nothing is read or sent, the position just keeps up with the
                // log's end. A subscriber that connects meanwhile misses nothing: it subscribes
                // before it reads the log, and a jump or a quiet second sends it to the log.
                let end = lastWritten()
                if end > last {
                    recorder.passed(upTo: end, lastWritten: end)
                    last = end
                }
                try? await Task.sleep(for: Self.idleLook)
                continue
            }
            let batch: [LoggedEvent]
            do {
                batch = try await events.nextEvents(after: last, limit: Self.batchSize)
            } catch is CancellationError {
                return
            } catch {
                // The store is away: the events stay in the log; try again shortly.
                logger.debug("reading events to publish failed; retrying", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .milliseconds(200))
                continue
            }
            var messages: [EventStreamOutbox.Message] = []
            messages.reserveCapacity(batch.count)
            for event in batch {
                writer.reset()
                writer.loggedEvent(event)
                messages.append(.init(type: Array(event.type.utf8), body: writer.bytes))
            }
            await outbox.send(messages)
            recorder.published(batch, at: clock.now(), lastWritten: lastWritten())
            last = batch.last?.seq ?? last
        }
    }

    /// Tells the thread to close the socket and waits until it has.
    private func stopThread() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = stopped.withLock { waiting -> Bool in
                if threadEnded.load(ordering: .acquiring) { return true }
                waiting = continuation
                return false
            }
            if ended { continuation.resume() }
            outbox.stop()
        }
    }
}

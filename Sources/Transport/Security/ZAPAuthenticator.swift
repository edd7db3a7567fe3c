import Foundation
import Logging
import Metrics
import Synchronization
import WireContract
import ZeroMQ

/// The ZAP handler (RFC 27) of one ZeroMQ context — the use-case endpoints' shared one (`svcd
/// --client-keys`), or the admin endpoint's own: admits a CURVE client only when its public key
/// is listed at the moment of its handshake (in the ``CallerDirectory``'s file, or the admin's
/// ``ClientKeyList``); on a socket whose ZAP domain is ``CallerGrant/events`` (the live event
/// stream) only a caller allowed `events`. With a ``CallerDirectory`` its thread also reads the
/// file again every ``CallerDirectory/refreshInterval``, so the endpoints see changes to it. It can also read endpoints'
/// handshake-failure events (``handshakeMonitor(for:)``), so clients that never get as far as
/// ZAP — plaintext, or garbage instead of a CURVE handshake — are counted and logged as
/// refusals too.
///
/// It runs on a thread of its own that owns the handler's REP socket for its whole life, and
/// lives exactly as long as the context: it stops when the context is terminated, after every
/// endpoint socket is closed. (libzmq admits any CURVE client when no handler is bound, so the
/// handler must not go away before the sockets it guards.) A refused client gets no connection:
/// no reply, and nothing it sent reaches the endpoint. Refusals are counted, and logged as a
/// warning with the peer's address and key (for a failed handshake, the endpoint's address) at
/// most once per ``warningInterval`` (with the number of refusals not logged since).
public final class ZAPAuthenticator: Sendable {
    /// The minimum time between two refusal warnings.
    public static let warningInterval: Duration = .seconds(5)

    private let admission: Admission
    private let guarded: String
    private let logger: Logger
    private let refusals = Atomic<Int>(0)
    private let refusalCounter: Counter
    private let lastWarning = Mutex<(at: ContinuousClock.Instant?, unlogged: Int)>((nil, 0))

    /// Handshakes refused so far.
    public var refusedHandshakes: Int { refusals.load(ordering: .relaxed) }

    /// A handler admitting the keys of `allowed` on the endpoints `guarded` names in its
    /// warnings ("a use-case endpoint"); it serves from ``start(in:watching:)``. Refusals are also
    /// counted as `svc_refused_clients_total` in `metrics`.
    public convenience init(allowed: ClientKeyList, guarding guarded: String, logger: Logger, metrics: any MetricsFactory) {
        self.init(admission: .keys(allowed), guarding: guarded, logger: logger, metrics: metrics)
    }

    /// A handler admitting the callers of `callers` (see ``init(allowed:guarding:logger:metrics:)``).
    public convenience init(callers: CallerDirectory, guarding guarded: String, logger: Logger, metrics: any MetricsFactory) {
        self.init(admission: .callers(callers), guarding: guarded, logger: logger, metrics: metrics)
    }

    /// Who is admitted: the keys of a plain list, or the callers of `--client-keys`.
    private enum Admission: Sendable {
        case keys(ClientKeyList)
        case callers(CallerDirectory)
    }

    private init(admission: Admission, guarding guarded: String, logger: Logger, metrics: any MetricsFactory) {
        self.admission = admission
        self.guarded = guarded
        self.logger = logger
        refusalCounter = Counter(label: Self.refusalMetric, factory: metrics)
    }

    /// The counter of refused handshakes. svcd shows it, at 0, without `--client-keys` too, so
    /// dashboards and alerts need not tell a missing series from no refusals.
    public static let refusalMetric = "svc_refused_clients_total"

    /// The inproc address where the endpoint `name` publishes its failed handshakes.
    public static func handshakeMonitor(for name: String) -> String {
        "inproc://svc-curve-handshakes-\(name)"
    }

    /// Binds the handler in `context` (before any endpoint that relies on it binds), watches the
    /// handshake monitors of the endpoints `watching` names, and serves on its own thread until
    /// the context is terminated.
    public func start(in context: ZMQContext, watching names: [String]) async throws {
        try await DedicatedThread.start(named: "zmq-zap") { () throws -> ([ZMQSocket], Void) in
            var opened: [ZMQSocket] = []
            do {
                let socket = try context.makeSocket(.rep)
                opened.append(socket)
                try socket.setLinger(0)
                _ = try socket.bind(ZMQ.zapEndpoint)
                for name in names {
                    // inproc allows connecting before the endpoint's monitor binds.
                    let monitor = try context.makeSocket(.pair)
                    opened.append(monitor)
                    try monitor.setLinger(0)
                    try monitor.connect(Self.handshakeMonitor(for: name))
                }
            } catch {
                for socket in opened { socket.close() }
                throw error
            }
            return (opened, ())
        } serve: { [self] opened in
            serve(opened[0], monitors: Array(opened.dropFirst()))
        }
    }

    private func serve(_ socket: ZMQSocket, monitors: [ZMQSocket]) {
        defer {
            socket.close()
            for monitor in monitors { monitor.close() }
        }
        let poller = ZMQPoller()
        _ = poller.add(socket, events: .pollIn)
        for monitor in monitors { _ = poller.add(monitor, events: .pollIn) }
        let directory: CallerDirectory? = if case .callers(let directory) = admission { directory } else { nil }
        let timeout = directory == nil ? -1 : Int(CallerDirectory.refreshInterval / .milliseconds(1))
        while true {
            do {
                _ = try poller.poll(timeoutMilliseconds: timeout)
            } catch ZMQError.interrupted {
                continue
            } catch {
                // ETERM: the context is being terminated; every endpoint socket is closed.
                return
            }
            directory?.refreshIfDue()
            if poller.returnedEvents(at: 0).canReceive {
                while let request = try? socket.receiveMultipart(dontWait: true) {
                    do {
                        try socket.sendMultipart(answer(request))
                    } catch {
                        if error == .terminated { return }
                    }
                }
            }
            for (index, monitor) in monitors.enumerated() where poller.returnedEvents(at: index + 1).canReceive {
                while let event = try? monitor.receiveMonitorEvent(dontWait: true) {
                    refused(because: "its handshake failed (plaintext, or not CURVE)", metadata: ["endpoint": "\(event.endpoint)"])
                }
            }
        }
    }

    /// The reply to one ZAP request: `[version, request id, status, text, user id, metadata]`.
    func answer(_ frames: [[UInt8]]) -> [[UInt8]] {
        let request = ZAPRequest(frames)
        var refusal: String? = "its key is not in the client key list"
        switch admission {
        case .keys(let list):
            if let key = request.clientKey, list.allows(key) { refusal = nil }
        case .callers(let directory):
            // Read now: a key added a moment ago is admitted at once.
            directory.refresh()
            if let key = request.clientKey, let caller = directory.caller(ofKey: key) {
                refusal = request.domain != CallerGrant.events || caller.line.allows(CallerGrant.events)
                    ? nil : "its caller \(caller.line.name) is not allowed \(CallerGrant.events)"
            }
        }
        if let refusal {
            refused(because: refusal, metadata: [
                "peer": "\(request.address)", "mechanism": "\(request.mechanism)", "clientKey": "\(request.clientKey ?? "none")",
            ])
        }
        return request.reply(allowed: refusal == nil, refusal: "client key not allowed")
    }

    private func refused(because reason: String, metadata: Logger.Metadata) {
        refusals.add(1, ordering: .relaxed)
        refusalCounter.increment()
        let now = ContinuousClock.now
        let unlogged: Int? = lastWarning.withLock { state in
            if let at = state.at, now - at < Self.warningInterval {
                state.unlogged += 1
                return nil
            }
            defer { state = (now, 0) }
            return state.unlogged
        }
        guard let unlogged else { return }
        var details = metadata
        details["refusedSinceLastWarning"] = "\(unlogged)"
        details["refusedInAll"] = "\(refusals.load(ordering: .relaxed))"
        logger.warning("client refused on \(guarded): \(reason)", metadata: details)
    }
}

import Foundation
import Logging
import Metrics
import Synchronization
import ZeroMQ

/// The ZAP handler (RFC 27) of the use-case endpoints' ZeroMQ context: admits a CURVE client
/// only when its public key is in the ``ClientKeyList`` at the moment of its handshake.
///
/// It runs on a thread of its own that owns the handler's REP socket for its whole life, and
/// lives exactly as long as the context: it stops when the context is terminated, after every
/// endpoint socket is closed. (libzmq admits any CURVE client when no handler is bound, so the
/// handler must not go away before the sockets it guards.) A refused client gets no connection:
/// no reply, and nothing it sent reaches a use case. Refusals are counted, and logged as a
/// warning with the peer's address at most once per ``warningInterval`` (with the number of
/// refusals not logged since).
public final class ZAPAuthenticator: Sendable {
    /// The minimum time between two refusal warnings.
    public static let warningInterval: Duration = .seconds(5)

    private let allowed: ClientKeyList
    private let logger: Logger
    private let refusals = Atomic<Int>(0)
    private let refusalCounter: Counter
    private let lastWarning = Mutex<(at: ContinuousClock.Instant?, unlogged: Int)>((nil, 0))

    /// Handshakes refused so far.
    public var refusedHandshakes: Int { refusals.load(ordering: .relaxed) }

    /// A handler admitting the keys of `allowed`; it serves from ``start(in:)``. Refusals are
    /// also counted as `svc_refused_clients_total` in `metrics`.
    public init(allowed: ClientKeyList, logger: Logger, metrics: any MetricsFactory) {
        self.allowed = allowed
        self.logger = logger
        refusalCounter = Counter(label: "svc_refused_clients_total", factory: metrics)
    }

    /// Binds the handler in `context` (before any endpoint that relies on it binds) and serves
    /// on its own thread until the context is terminated.
    public func start(in context: ZMQContext) async throws {
        try await withCheckedThrowingContinuation { (bound: CheckedContinuation<Void, any Error>) in
            let thread = Thread { [self] in
                Thread.current.name = "zmq-zap"
                let socket: ZMQSocket
                do {
                    socket = try context.makeSocket(.rep)
                    try socket.setLinger(0)
                    _ = try socket.bind(ZMQ.zapEndpoint)
                } catch {
                    bound.resume(throwing: error)
                    return
                }
                bound.resume()
                serve(socket)
            }
            thread.start()
        }
    }

    private func serve(_ socket: ZMQSocket) {
        defer { socket.close() }
        while true {
            let request: [[UInt8]]
            do {
                request = try socket.receiveMultipart()
            } catch ZMQError.interrupted {
                continue
            } catch {
                // ETERM: the context is being terminated; every endpoint socket is closed.
                return
            }
            do {
                try socket.sendMultipart(answer(request))
            } catch {
                if error == .terminated { return }
            }
        }
    }

    /// The reply to one ZAP request: `[version, request id, status, text, user id, metadata]`.
    func answer(_ request: [[UInt8]]) -> [[UInt8]] {
        // [version, request id, domain, address, identity, mechanism, credentials…]
        let requestId = request.count > 1 ? request[1] : []
        let address = request.count > 3 ? String(decoding: request[3], as: UTF8.self) : "?"
        let mechanism = request.count > 5 ? String(decoding: request[5], as: UTF8.self) : "?"
        var clientKey = ""
        if mechanism == "CURVE", request.count > 6, let key = Z85.encode(request[6]) {
            clientKey = key
            if allowed.allows(key) {
                return [Array("1.0".utf8), requestId, Array("200".utf8), Array("OK".utf8), Array(key.utf8), []]
            }
        }
        refused(address: address, mechanism: mechanism, clientKey: clientKey)
        return [Array("1.0".utf8), requestId, Array("400".utf8), Array("client key not allowed".utf8), [], []]
    }

    private func refused(address: String, mechanism: String, clientKey: String) {
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
        logger.warning("client refused on a use-case endpoint: key not in the client key list", metadata: [
            "peer": "\(address)", "mechanism": "\(mechanism)", "clientKey": "\(clientKey.isEmpty ? "none" : clientKey)",
            "refusedSinceLastWarning": "\(unlogged)", "refusedInAll": "\(refusals.load(ordering: .relaxed))",
        ])
    }
}

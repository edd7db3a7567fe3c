import Foundation
import WireContract
import WireJSON
import ZeroMQ

/// CURVE client credentials (all keys Z85, 40 characters).
struct CurveCredentials {
    /// The server's public key.
    let serverKey: String
    /// The client's public key.
    let publicKey: String
    /// The client's secret key.
    let secretKey: String

    /// Reads one Z85 key from the first line of `path`; malformed or unreadable → exit 65.
    static func readKey(at path: String, what: String) throws(CtlFailure) -> String {
        do {
            return try CurveKeyFile.key(at: path)
        } catch .unreadable(let reason) {
            throw CtlFailure(ExitStatus.dataError, "cannot read the \(what) file \(path): \(reason)")
        } catch {
            throw CtlFailure(ExitStatus.dataError, "\(path) does not hold a 40-character Z85 \(what)")
        }
    }

    /// The credentials for a server with `serverKey`: the key files `--public-key-file` and
    /// `--secret-key-file` name when given, otherwise svcd's local admin key files (named in
    /// endpoints.json).
    static func client(of serverKey: String, options: CommonOptions, endpoints: ServiceEndpoints) throws(CtlFailure) -> CurveCredentials {
        let publicPath: String
        let secretPath: String
        if let publicKeyFile = options.publicKeyFile, let secretKeyFile = options.secretKeyFile {
            publicPath = absolutePath(publicKeyFile)
            secretPath = absolutePath(secretKeyFile)
        } else if let publicKeyFile = endpoints.adminClientPublicKeyFile, let secretKeyFile = endpoints.adminClientSecretKeyFile {
            publicPath = publicKeyFile
            secretPath = secretKeyFile
        } else {
            throw CtlFailure(ExitStatus.unavailable, "endpoints.json names no admin client key files; pass --public-key-file and --secret-key-file")
        }
        return CurveCredentials(
            serverKey: serverKey,
            publicKey: try readKey(at: publicPath, what: "public key"),
            secretKey: try readKey(at: secretPath, what: "secret key")
        )
    }

    /// The credentials for the use-case endpoints of the svcd behind `endpoints` (read from
    /// `source`): `nil` when they speak plaintext (no `useCaseServerKey`), else ``client(of:options:endpoints:)``.
    static func useCases(of endpoints: ServiceEndpoints, source: String, options: CommonOptions) throws(CtlFailure) -> CurveCredentials? {
        guard let serverKey = endpoints.useCaseServerKey else { return nil }
        guard ZMQCurve.isKey(serverKey) else {
            throw CtlFailure(ExitStatus.unavailable, "\(source) holds a malformed useCaseServerKey")
        }
        return try client(of: serverKey, options: options, endpoints: endpoints)
    }
}

extension ZMQSocket {
    /// Makes this (client) socket a CURVE client with `credentials`; `nil` leaves it plaintext.
    /// Call before connecting.
    func useCurve(_ credentials: CurveCredentials?) throws(ZMQError) {
        guard let credentials else { return }
        try setCurveClient(serverKey: credentials.serverKey, publicKey: credentials.publicKey, secretKey: credentials.secretKey)
    }
}

/// One request/reply exchange with an svcd endpoint over a DEALER socket: an empty delimiter
/// frame, then the JSON body; the reply must carry the same `id`.
///
/// A monitor on the socket tells a refused connection (exit 69) and a rejected CURVE
/// handshake (exit 69) apart from silence (exit 75).
struct WireExchange {
    /// Where to connect, e.g. `tcp://127.0.0.1:7100`.
    let address: String
    /// CURVE client credentials, or `nil` for a plain connection.
    let credentials: CurveCredentials?
    /// How long to wait for the reply.
    let timeoutMilliseconds: Int
    /// What is being talked to, for messages ("the admin endpoint", "GetRestaurant").
    let peerName: String
    /// The file that lists the keys this peer admits, for the message when it refuses ours.
    var allowList = "keys/authorized_keys"

    /// A fresh request id.
    static func makeRequestID() -> String {
        "svcctl-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Sends `request` (which must carry `id`) and returns the parsed reply object.
    func send(_ request: JSONValue, id: String) throws(CtlFailure) -> JSONValue {
        do {
            return try exchange(request, id: id)
        } catch let failure as CtlFailure {
            throw failure
        } catch {
            throw CtlFailure(ExitStatus.unavailable, "cannot talk to \(peerName) at \(address): \(error)")
        }
    }

    private func exchange(_ request: JSONValue, id: String) throws -> JSONValue {
        let context = try ZMQContext(ioThreads: 1, blocky: false)
        defer { context.terminate() }
        let dealer = try context.makeSocket(.dealer)
        defer { dealer.close() }
        try dealer.setLinger(0)
        try dealer.useCurve(credentials)
        let monitorEndpoint = "inproc://svcctl-monitor-\(UInt64.random(in: 0...UInt64.max))"
        try dealer.startMonitor(monitorEndpoint, events: [
            .connected, .connectRetried, .disconnected, .handshakeSucceeded,
            .handshakeFailedAuth, .handshakeFailedProtocol, .handshakeFailedNoDetail,
        ])
        let monitor = try context.makeSocket(.pair)
        defer { monitor.close() }
        try monitor.setLinger(0)
        try monitor.connect(monitorEndpoint)

        do throws(ZMQError) {
            try dealer.connect(address)
        } catch {
            throw CtlFailure(ExitStatus.unavailable, "cannot connect to \(peerName) at '\(address)': \(error)")
        }
        try dealer.sendMultipart([[], request.encoded()], dontWait: true)

        let poller = ZMQPoller()
        let dealerIndex = poller.add(dealer)
        let monitorIndex = poller.add(monitor)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(timeoutMilliseconds))
        var everConnected = false
        var handshakeDone = false
        var handshakeTrouble: String?
        var frames: [[UInt8]] = []
        while true {
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero { break }
            let milliseconds = max(1, Int(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            do throws(ZMQError) {
                _ = try poller.poll(timeoutMilliseconds: milliseconds)
            } catch {
                if error == .interrupted { continue }
                throw error
            }
            if poller.returnedEvents(at: monitorIndex).canReceive {
                while let event = try? monitor.receiveMonitorEvent(dontWait: true) {
                    switch event.event {
                    case .connected:
                        everConnected = true
                    case .connectRetried where !everConnected:
                        throw CtlFailure(
                            ExitStatus.unavailable, "\(peerName) at \(address) refused the connection (is svcd running?)", noAnswer: true)
                    case .handshakeSucceeded:
                        handshakeDone = true
                    case .handshakeFailedAuth:
                        throw CtlFailure(
                            ExitStatus.unavailable,
                            "\(peerName) at \(address) rejected this client key (is its public key in \(allowList)?)")
                    case .handshakeFailedProtocol, .handshakeFailedNoDetail:
                        handshakeTrouble = "the security handshake with \(peerName) at \(address) failed"
                    case .disconnected where !handshakeDone:
                        handshakeTrouble = "\(peerName) at \(address) dropped the connection during the handshake"
                            + (credentials == nil ? "" : " (wrong server key?)")
                    default:
                        break
                    }
                }
            }
            if poller.returnedEvents(at: dealerIndex).canReceive {
                while try dealer.receiveMultipart(into: &frames, dontWait: true) != nil {
                    guard let body = frames.last, let reply = try? JSONParser.parse(body), reply.objectValue != nil else {
                        continue
                    }
                    // Ignore stray replies to other requests.
                    if let replyID = reply[WireEnvelope.Key.id]?.stringValue, replyID != id { continue }
                    return reply
                }
            }
        }
        if let handshakeTrouble {
            throw CtlFailure(ExitStatus.unavailable, handshakeTrouble)
        }
        let seconds = Double(timeoutMilliseconds) / 1000
        throw CtlFailure(
            ExitStatus.timedOut, "no answer from \(peerName) at \(address) within \(formatSeconds(seconds))", noAnswer: true)
    }
}

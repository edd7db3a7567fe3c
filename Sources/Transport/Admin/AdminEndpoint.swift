import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import WireJSON
import ZeroMQ

/// Answers one admin request; throws a `WireError` (or any error, answered `internal`).
public typealias AdminHandler = @Sendable (AdminRequest) async throws -> JSONValue

/// The admin endpoint: a ROUTER socket with CURVE encryption on its own thread and in its own
/// ZeroMQ context, so it answers even when every use case is saturated, and a ZAP handler that
/// admits only the client public keys listed in the allow-list file (read at every handshake,
/// so keys added by `svcctl keygen` work at once). Plaintext peers and unknown keys get no
/// connection at all.
///
/// Requests go to `handler` as tasks; replies come back through the endpoint's outbox. After a
/// reply with `afterReply` set (e.g. shutdown), that action runs once the reply is queued.
public final class AdminEndpoint: Service, Sendable {
    private let address: String
    private let serverSecretKey: String
    private let authorizedKeysPath: String
    private let handler: AdminHandler
    private let logger: Logger
    private let outbox: ReplyOutbox
    private let control = EndpointControl()
    private let requests: AsyncStream<(Envelope, AdminRequest)>
    private let deliver: AsyncStream<(Envelope, AdminRequest)>.Continuation

    /// An endpoint that will bind `address` as CURVE server with `serverSecretKey` (Z85).
    public init(address: String, serverSecretKey: String, authorizedKeysPath: String, handler: @escaping AdminHandler, logger: Logger) throws {
        self.address = address
        self.serverSecretKey = serverSecretKey
        self.authorizedKeysPath = authorizedKeysPath
        self.handler = handler
        self.logger = logger
        outbox = try ReplyOutbox()
        (requests, deliver) = AsyncStream.makeStream(of: (Envelope, AdminRequest).self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Starts the admin thread, which creates the sockets and binds; returns the bound address.
    public func start() async throws -> String {
        try await withCheckedThrowingContinuation { (bound: CheckedContinuation<String, any Error>) in
            let thread = Thread { [self] in
                Thread.current.name = "zmq-admin"
                let loop: AdminSocketLoop
                do {
                    loop = try AdminSocketLoop(
                        address: address, serverSecretKey: serverSecretKey, authorizedKeysPath: authorizedKeysPath,
                        outbox: outbox, control: control, deliver: deliver, logger: logger
                    )
                } catch {
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

    /// Serves admin requests until graceful shutdown, then closes the socket.
    public func run() async throws {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withDiscardingTaskGroup { group in
                    for await (envelope, request) in requests {
                        group.addTask { [handler, outbox, logger] in
                            let body: [UInt8]
                            do {
                                body = WireReply.adminSuccess(id: request.id, result: try await handler(request))
                            } catch let error as WireError {
                                body = WireReply.adminFailure(id: request.id, error: error)
                            } catch {
                                logger.error("admin operation failed", metadata: ["op": "\(request.op)", "error": "\(error)"])
                                body = WireReply.adminFailure(id: request.id, error: WireError(mapping: error))
                            }
                            outbox.push(OutboundReply(envelope: envelope, body: body))
                        }
                    }
                }
            } onGracefulShutdown: { [control, outbox] in
                control.request(.stopping)
                outbox.wake()
            }
        } onCancel: { [control, outbox] in
            control.request(.aborting)
            outbox.wake()
        }
    }

    /// Closes the socket without serving; for an endpoint whose `run()` never started.
    public func abort() {
        control.request(.aborting)
        outbox.wake()
    }
}

extension WireReply {
    /// An admin success reply: `{"v":1,"id":…,"ok":true,"result":…}`.
    static func adminSuccess(id: String?, result: JSONValue) -> [UInt8] {
        success(id: id, result: AdminResult(value: result))
    }

    /// An admin failure reply with the contract's error object.
    static func adminFailure(id: String?, error: WireError) -> [UInt8] {
        failure(id: id, error: error)
    }
}

/// An admin operation's result, written as the JSON value it is.
private struct AdminResult: WireEncodable {
    let value: JSONValue

    consuming func write(to writer: inout JSONWriter) {
        writer.value(value)
    }
}

import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// `svcd --http-port`: a plain HTTP/1.1 listener (SwiftNIO's HTTP/1 codec on the shared event
/// loop group) for Prometheus scrapes and load-balancer probes; see ``MonitoringRoutes`` for
/// what it answers.
///
/// ``bind(host:port:routes:logger:)`` binds at start-up, so a port in use stops start-up with an
/// ``HTTPListenFailure`` naming the address. ``run()`` serves until graceful shutdown, then
/// stops accepting, ends every connection and returns.
final class MonitoringHTTPListener: Service, Sendable {
    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    private let server: NIOAsyncChannel<Connection, Never>
    private let routes: MonitoringRoutes
    private let logger: Logger
    /// `host:port` as bound (the real port when 0 was asked for).
    let boundAddress: String

    private init(server: NIOAsyncChannel<Connection, Never>, routes: MonitoringRoutes, logger: Logger, boundAddress: String) {
        self.server = server
        self.routes = routes
        self.logger = logger
        self.boundAddress = boundAddress
    }

    /// Binds `host:port` (port 0: an ephemeral port) and returns the listener, not yet serving.
    static func bind(host: String, port: Int, routes: MonitoringRoutes, logger: Logger) async throws -> MonitoringHTTPListener {
        let address = "\(host):\(port)"
        let server: NIOAsyncChannel<Connection, Never>
        do {
            server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        return try Connection(wrappingChannelSynchronously: channel)
                    }
                }
        } catch let error as IOError {
            throw HTTPListenFailure(address: address, reason: String(cString: strerror(error.errnoCode)))
        } catch {
            throw HTTPListenFailure(address: address, reason: "\(error)")
        }
        let boundPort = server.channel.localAddress?.port ?? port
        return MonitoringHTTPListener(server: server, routes: routes, logger: logger, boundAddress: "\(host):\(boundPort)")
    }

    /// Serves connections until graceful shutdown (or cancellation), then closes them all.
    func run() async throws {
        logger.info("monitoring HTTP listener serving", metadata: ["address": "\(boundAddress)"])
        let server = self.server
        let routes = self.routes
        let logger = self.logger
        // Scrapes and probes are short: cutting a keep-alive connection at shutdown loses
        // nothing, and waiting for idle ones could hold the shutdown up indefinitely.
        try await cancelWhenGracefulShutdown {
            do {
                try await withThrowingDiscardingTaskGroup { group in
                    try await server.executeThenClose { connections in
                        for try await connection in connections {
                            group.addTask {
                                do {
                                    try await Self.serve(connection, routes: routes)
                                } catch {
                                    logger.debug("monitoring HTTP connection ended", metadata: ["error": "\(error)"])
                                }
                            }
                        }
                    }
                }
            } catch is CancellationError {
                // The way this listener is told to stop; not a failure of the service.
            }
        }
        logger.info("monitoring HTTP listener stopped", metadata: ["address": "\(boundAddress)"])
    }

    /// Closes the listening socket of a listener whose ``run()`` never started.
    func close() async {
        try? await server.channel.close()
    }

    /// Answers the requests of one connection in order until the client closes it or asks to.
    private static func serve(_ connection: Connection, routes: MonitoringRoutes) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                case .body:
                    // No route takes a body.
                    break
                case .end:
                    guard let request = head else { continue }
                    head = nil
                    let response = await routes.respond(method: request.method, uri: request.uri)
                    let body = ByteBuffer(string: response.body)
                    var headers = HTTPHeaders()
                    headers.add(name: "Content-Type", value: response.contentType)
                    headers.add(name: "Content-Length", value: String(body.readableBytes))
                    if let allow = response.allow { headers.add(name: "Allow", value: allow) }
                    if !request.isKeepAlive { headers.add(name: "Connection", value: "close") }
                    try await outbound.write(.head(HTTPResponseHead(version: request.version, status: response.status, headers: headers)))
                    try await outbound.write(.body(.byteBuffer(body)))
                    try await outbound.write(.end(nil))
                    if !request.isKeepAlive { return }
                }
            }
        }
    }
}

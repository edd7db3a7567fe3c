import Foundation
import ZeroMQ

/// The baseline: a raw libzmq ROUTER that sends every multipart message straight back
/// (routing id, empty delimiter and body unchanged). It has its own context and one dedicated
/// thread that creates, binds, uses and closes the socket; there is no actor, no JSON and no
/// hop between threads, so it is as close to what ZeroMQ itself costs as the binding allows.
final class EchoServer: Sendable {
    /// The bound address, e.g. `tcp://127.0.0.1:41234`.
    let endpoint: String

    private let context: ZMQContext
    private let finished: AsyncStream<Void>

    private init(endpoint: String, context: ZMQContext, finished: AsyncStream<Void>) {
        self.endpoint = endpoint
        self.context = context
        self.finished = finished
    }

    /// Starts the thread, binds `tcp://127.0.0.1:*` on it and returns once the socket is bound.
    /// With `curveSecretKey` (Z85) the socket is a CURVE server with that key and no ZAP
    /// handler, so it takes every client key; svcd's ZAP check runs once per connection, at
    /// the handshake, so it adds nothing per message.
    static func start(curveSecretKey: String? = nil) async throws -> EchoServer {
        let context = try ZMQContext(ioThreads: 1)
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        do {
            let endpoint = try await DedicatedThread.start(named: "svcbench-echo") { () throws -> (ZMQSocket, String) in
                let socket = try context.makeSocket(.router)
                do {
                    try socket.setLinger(0)
                    if let curveSecretKey {
                        try socket.setCurveServer(true)
                        try socket.setCurveSecretKey(curveSecretKey)
                    }
                    return (socket, try socket.bind("tcp://127.0.0.1:*"))
                } catch {
                    // Closed before the caller terminates the context, which waits for its sockets.
                    socket.close()
                    throw error
                }
            } serve: { socket in
                defer { finish.finish() }
                serve(socket)
                socket.close()
            }
            return EchoServer(endpoint: endpoint, context: context, finished: finished)
        } catch {
            context.terminate()
            throw error
        }
    }

    /// Blocking receive of one message, echo it, then echo whatever else is already queued
    /// without blocking; repeat until the context is shut down.
    private static func serve(_ socket: ZMQSocket) {
        var frames: [[UInt8]] = []
        while true {
            do throws(ZMQError) {
                guard try socket.receiveMultipart(into: &frames) != nil else { continue }
                try echo(frames, on: socket)
                while try socket.receiveMultipart(into: &frames, dontWait: true) != nil {
                    try echo(frames, on: socket)
                }
            } catch .interrupted {
                continue
            } catch .terminated {
                return
            } catch {
                FileHandle.standardError.write(Data("svcbench: echo server stops: \(error)\n".utf8))
                return
            }
        }
    }

    @inline(__always)
    private static func echo(_ frames: [[UInt8]], on socket: ZMQSocket) throws(ZMQError) {
        let last = frames.count - 1
        for index in frames.indices {
            try socket.send(frames[index], more: index < last)
        }
    }

    /// Shuts the context down (the thread's blocking receive fails with `ETERM`), waits until
    /// the thread has closed its socket, then terminates the context.
    func stop() async {
        context.shutdown()
        for await _ in finished {}
        context.terminate()
    }
}

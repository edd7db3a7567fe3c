import ZeroMQ

/// One request at a time to one svcd endpoint over a REQ socket: the blocking caller that the
/// tools' set-up steps and probes, and the tests, share. REQ strips the envelope, so a request
/// is its JSON body alone and a reply its frames as svcd sent them after the delimiter.
///
/// Blocking: create, use and close it on one dedicated thread (a socket is used by one thread
/// for life), never on Swift's cooperative pool. It has its own context, so closing it never
/// waits on another socket.
public final class LockstepCaller {
    /// Where it is connected, e.g. `tcp://127.0.0.1:7101`.
    public let address: String
    private let context: ZMQContext
    private let socket: ZMQSocket
    private var frames: [[UInt8]] = []
    /// A REQ socket whose reply never came cannot send again.
    private var stalled = false

    /// A caller connected to `address` that waits up to `timeoutMilliseconds` for each reply;
    /// with `curve`, a CURVE client of that server. Linger 0: closing drops what is unsent.
    public init(address: String, timeoutMilliseconds: Int32, curve: CurveClientKeys? = nil) throws(ZMQError) {
        self.address = address
        context = try ZMQContext()
        do throws(ZMQError) {
            socket = try context.makeClientSocket(
                .req, connectingTo: address, curve: curve, receiveTimeoutMilliseconds: timeoutMilliseconds, sendTimeoutMilliseconds: timeoutMilliseconds
            )
        } catch {
            context.terminate()
            throw error
        }
    }

    /// Sends `body` and returns the reply's frames (the JSON body last), or `nil` when none came
    /// within the timeout; after that the caller cannot be used again (``ZMQError/wrongState``).
    public func call(_ body: [UInt8]) throws(ZMQError) -> [[UInt8]]? {
        if stalled { throw .wrongState }
        try socket.send(body)
        guard try socket.receiveMultipart(into: &frames) != nil else {
            stalled = true
            return nil
        }
        return frames
    }

    /// Closes the socket and its context.
    public func close() {
        socket.close()
        context.terminate()
    }
}

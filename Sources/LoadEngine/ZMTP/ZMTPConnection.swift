#if canImport(Glibc)
import Glibc
#endif

/// A DEALER's connection to one ROUTER endpoint in ZMTP 3.1 over TCP with the NULL mechanism,
/// spoken by the calling thread itself instead of through libzmq's I/O thread: a request is one
/// `send` on the thread that made it, and a reply is read when that thread looks, so a load
/// thread that wakes once per tick pays no wake-up of another thread per request and per reply.
/// CURVE is not spoken (such a run uses libzmq). Used by one thread only.
///
/// Requests are queued (``queueRequest(_:)``) and written by ``flush()``; replies are read by
/// ``receive(_:)`` without waiting (the descriptor is non-blocking once the handshake is done),
/// which also answers the peer's heartbeat `PING`s.
final class ZMTPConnection {
    /// The socket, for `poll`.
    let descriptor: Int32
    private var reader: ZMTPFrameReader
    private var outbound: [UInt8] = []
    /// Bytes of `outbound` already written.
    private var written = 0
    private let queueLimitBytes: Int
    private var isClosed = false
    /// Heartbeat `PING`s answered so far.
    private(set) var pingsAnswered = 0
    /// Requests queued for which no reply has come yet (as far as counting messages tells).
    private(set) var awaitingReplies = 0

    /// Connects to `address`, greets, and exchanges `READY` as `socketType`, waiting at most
    /// `timeoutMilliseconds` for each step; then the connection never blocks. Replies or
    /// commands above `maxMessageBytes` end it; ``queueRequest(_:)`` takes no more while
    /// `queueLimitBytes` wait to be written.
    init(
        connectingTo address: ZMTPAddress, socketType: String = "DEALER", timeoutMilliseconds: Int, maxMessageBytes: Int,
        queueLimitBytes: Int
    ) throws(ZMTPFailure) {
        descriptor = try Self.connect(to: address, timeoutMilliseconds: timeoutMilliseconds)
        reader = ZMTPFrameReader(maxMessageBytes: maxMessageBytes)
        self.queueLimitBytes = queueLimitBytes
        do throws(ZMTPFailure) {
            try handshake(socketType: socketType)
            var flags = fcntl(descriptor, F_GETFL)
            flags |= O_NONBLOCK
            guard fcntl(descriptor, F_SETFL, flags) == 0 else { throw ZMTPFailure("cannot make the socket non-blocking: \(Self.errorText())") }
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// The most one `recv` reads.
    private static let readSize = 65_536

    /// Whether queued bytes still wait to be written.
    var hasUnwrittenBytes: Bool { written < outbound.count }

    /// Queues a request: an empty delimiter frame, then `body` (what a DEALER sends a ROUTER).
    /// `false`, queueing nothing, while more than the queue limit waits to be written.
    func queueRequest(_ body: [UInt8]) -> Bool {
        queueRequest(byteCount: body.count) { $0.append(contentsOf: body) }
    }

    /// Queues a request whose body of `byteCount` bytes `write` appends to the queue (written in
    /// place, not copied); `false`, queueing nothing, as ``queueRequest(_:)``.
    func queueRequest(byteCount: Int, write: (inout [UInt8]) -> Void) -> Bool {
        guard outbound.count - written < queueLimitBytes else { return false }
        Self.appendFrame([], more: true, to: &outbound)
        Self.appendFrameHeader(size: byteCount, to: &outbound)
        let start = outbound.count
        write(&outbound)
        precondition(outbound.count - start == byteCount, "a request body of \(outbound.count - start) bytes announced as \(byteCount)")
        awaitingReplies += 1
        return true
    }

    /// Writes what is queued, as far as the socket takes it now; the rest waits for the next call.
    func flush() throws(ZMTPFailure) {
        while written < outbound.count {
            let count = outbound.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                written += count
                continue
            }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { break }
            throw ZMTPFailure("the connection failed while sending: \(Self.errorText(error))")
        }
        if written == outbound.count {
            outbound.removeAll(keepingCapacity: true)
            written = 0
        } else if written >= 65_536, written * 2 >= outbound.count {
            // A peer that never quite catches up must not keep what was written alive.
            outbound.removeSubrange(0..<written)
            written = 0
        }
    }

    /// Reads what has arrived, without waiting, and lends each whole message to `message` in
    /// order; answers heartbeat `PING`s. Throws when the peer closed the connection, sent an
    /// `ERROR`, or broke the protocol.
    func receive(_ message: (ZMTPFrames) -> Void) throws(ZMTPFailure) {
        while true {
            let count = reader.receive(atMost: Self.readSize) { end, size in recv(descriptor, end, size, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                try dispatch(message)
                // A short read emptied the socket: another call would only say so.
                if count < Self.readSize { return }
                continue
            }
            if count == 0 { throw ZMTPFailure("the peer closed the connection") }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return }
            throw ZMTPFailure("the connection failed while receiving: \(Self.errorText(error))")
        }
    }

    /// Closes the socket (what is queued or on its way is dropped). Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(descriptor)
    }

    /// Reads once, waiting up to the socket's timeout (the handshake's blocking socket).
    func readSome() throws(ZMTPFailure) {
        let count = reader.receive(atMost: Self.readSize) { end, size in recv(descriptor, end, size, 0) }
        if count > 0 { return }
        if count == 0 { throw ZMTPFailure("the peer closed the connection during the handshake") }
        let error = errno
        if error == EINTR { return }
        if error == EAGAIN || error == EWOULDBLOCK { throw ZMTPFailure("the peer did not finish the handshake in time") }
        throw ZMTPFailure("the handshake failed while receiving: \(Self.errorText(error))")
    }

    /// The peer's greeting once it has all been read.
    func takeGreeting() -> [UInt8]? {
        reader.takeGreeting()
    }

    /// The next whole message or command read, if any.
    func nextInput() throws(ZMTPFailure) -> ZMTPInput? {
        try reader.next()
    }

    private func dispatch(_ message: (ZMTPFrames) -> Void) throws(ZMTPFailure) {
        while true {
            switch try reader.take(message: message) {
            case .incomplete:
                return
            case .message:
                awaitingReplies = max(0, awaitingReplies - 1)
            case .command(let body):
                let input = ZMTPInput.command(body)
                switch input.commandName {
                case "PING":
                    // PING: name, a 2-byte TTL, up to 16 bytes of context the PONG echoes.
                    let context = body.count > 7 ? Array(body[7...]) : []
                    Self.appendFrame(Self.commandBody("PONG") + context, command: true, to: &outbound)
                    pingsAnswered += 1
                    try flush()
                case "ERROR":
                    throw ZMTPFailure("the peer sent ERROR: \(Self.errorReason(body))")
                default:
                    // PONG and commands of later protocol versions carry nothing a DEALER needs.
                    break
                }
            }
        }
    }
}

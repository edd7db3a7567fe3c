internal import CZeroMQ

/// A ZeroMQ socket. Create one with ``ZMQContext/makeSocket(_:)``.
///
/// **One thread per socket.** libzmq sockets are not thread safe: a socket must be
/// created, used and closed by one dedicated thread for its whole life. The type is
/// deliberately not `Sendable`, so the compiler refuses to hand it to another thread
/// or task.
///
/// The socket owns its libzmq handle and one heap-allocated `zmq_msg_t` that every
/// receive reuses; both are released by ``close()`` or, at the latest, by `deinit`.
/// The socket keeps its ``context`` alive.
public final class ZMQSocket {
    /// The libzmq socket handle; `nil` once closed.
    private(set) var handle: UnsafeMutableRawPointer?
    /// The one reusable receive message. Heap allocated because a `zmq_msg_t` stores
    /// small messages (≤ 33 bytes) inline and must never move while initialised.
    /// Initialised in `init`, closed in `close()`, deallocated in `deinit`.
    let message: UnsafeMutablePointer<zmq_msg_t>

    /// The socket's pattern.
    public let type: ZMQSocketType
    /// The context that created the socket (kept alive by the socket).
    public let context: ZMQContext

    init(handle: UnsafeMutableRawPointer, type: ZMQSocketType, context: ZMQContext) {
        self.handle = handle
        self.type = type
        self.context = context
        message = .allocate(capacity: 1)
        // zmq_msg_init cannot fail.
        zmq_msg_init(message)
    }

    deinit {
        close()
        message.deallocate()
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { handle == nil }

    /// Closes the socket (`zmq_close`). Idempotent. Pending outgoing messages are kept
    /// for up to ``linger`` milliseconds by the context; ``ZMQContext/terminate()`` waits
    /// for them.
    public func close() {
        guard let handle else { return }
        self.handle = nil
        zmq_msg_close(message)
        // Only fails with ENOTSOCK, which the nil check above rules out.
        _ = zmq_close(handle)
    }

    /// The handle, or ``ZMQError/notSocket`` once closed.
    @inline(__always)
    func liveHandle() throws(ZMQError) -> UnsafeMutableRawPointer {
        guard let handle else { throw ZMQError.notSocket }
        return handle
    }

    // MARK: Endpoints

    /// Binds to `endpoint` (`zmq_bind`) and returns the endpoint actually bound
    /// (``lastEndpoint``), which resolves wildcards: binding `tcp://127.0.0.1:*`
    /// returns e.g. `tcp://127.0.0.1:45123`.
    @discardableResult
    public func bind(_ endpoint: String) throws(ZMQError) -> String {
        let handle = try liveHandle()
        try check(zmq_bind(handle, endpoint))
        return try lastEndpoint
    }

    /// Connects to `endpoint` (`zmq_connect`). The connection is made asynchronously;
    /// messages queue until it is up (unless ``immediate`` is set).
    public func connect(_ endpoint: String) throws(ZMQError) {
        try check(zmq_connect(try liveHandle(), endpoint))
    }

    /// Stops listening on `endpoint` (`zmq_unbind`). Pass the resolved endpoint returned
    /// by ``bind(_:)``, not the wildcard.
    public func unbind(_ endpoint: String) throws(ZMQError) {
        try check(zmq_unbind(try liveHandle(), endpoint))
    }

    /// Disconnects from `endpoint` (`zmq_disconnect`).
    public func disconnect(_ endpoint: String) throws(ZMQError) {
        try check(zmq_disconnect(try liveHandle(), endpoint))
    }

    /// The last endpoint bound or connected (`ZMQ_LAST_ENDPOINT`), with wildcards resolved.
    public var lastEndpoint: String {
        get throws(ZMQError) { try stringOption(ZMQ_LAST_ENDPOINT, capacity: 1024) }
    }

    // MARK: Raw option access (internal)

    func setOption(_ name: Int32, _ value: Int32) throws(ZMQError) {
        var value = value
        try check(zmq_setsockopt(try liveHandle(), name, &value, MemoryLayout<Int32>.size))
    }

    func setOption(_ name: Int32, _ value: Int64) throws(ZMQError) {
        var value = value
        try check(zmq_setsockopt(try liveHandle(), name, &value, MemoryLayout<Int64>.size))
    }

    func setOption(_ name: Int32, _ value: Bool) throws(ZMQError) {
        try setOption(name, Int32(value ? 1 : 0))
    }

    func setOption(_ name: Int32, bytes: [UInt8]) throws(ZMQError) {
        let handle = try liveHandle()
        let rc = bytes.withUnsafeBytes { zmq_setsockopt(handle, name, $0.baseAddress, $0.count) }
        try check(rc)
    }

    func int32Option(_ name: Int32) throws(ZMQError) -> Int32 {
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        try check(zmq_getsockopt(try liveHandle(), name, &value, &size))
        return value
    }

    func int64Option(_ name: Int32) throws(ZMQError) -> Int64 {
        var value: Int64 = 0
        var size = MemoryLayout<Int64>.size
        try check(zmq_getsockopt(try liveHandle(), name, &value, &size))
        return value
    }

    func boolOption(_ name: Int32) throws(ZMQError) -> Bool {
        try int32Option(name) != 0
    }

    /// Reads a binary option of at most `capacity` bytes.
    func bytesOption(_ name: Int32, capacity: Int) throws(ZMQError) -> [UInt8] {
        let handle = try liveHandle()
        var size = capacity
        var failure: ZMQError?
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            do throws(ZMQError) {
                // errno is read inside the closure, before anything else can clobber it.
                try check(zmq_getsockopt(handle, name, buffer.baseAddress, &size))
                count = min(size, capacity)
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads a NUL-terminated string option of at most `capacity` bytes including the NUL.
    func stringOption(_ name: Int32, capacity: Int) throws(ZMQError) -> String {
        var bytes = try bytesOption(name, capacity: capacity)
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// ZMQSocket must stay on the thread that created it.
@available(*, unavailable, message: "a ZeroMQ socket must be used by exactly one thread")
extension ZMQSocket: Sendable {}

internal import CZeroMQ

/// A failed libzmq (or eventfd) call, identified by its `errno` value.
///
/// Every call into libzmq in this module goes through `check(_:)`, which
/// turns a `-1` return into a `ZMQError` carrying `zmq_errno()`. Compare against the
/// static constants, either with `==` or as a pattern:
///
/// ```swift
/// do throws(ZMQError) {
///     let frame = try socket.receive(dontWait: true)
/// } catch .again {
///     // nothing queued
/// }
/// ```
public struct ZMQError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The raw `errno` value (POSIX codes, or libzmq's own codes such as `ETERM`).
    public let code: Int32

    /// Wraps a raw `errno` value.
    public init(code: Int32) {
        self.code = code
    }

    /// The error of the last failed call on this thread (`zmq_errno()`, which is `errno`).
    static func current() -> ZMQError {
        ZMQError(code: zmq_errno())
    }

    /// `zmq_strerror` text followed by the symbolic name, e.g. `Resource temporarily unavailable (EAGAIN)`.
    public var description: String {
        let text = String(cString: zmq_strerror(code))
        return "\(text) (\(name))"
    }

    /// The symbolic `errno` name, e.g. `"EAGAIN"`, or `"errno <n>"` for codes this module does not name.
    public var name: String {
        switch code {
        case EAGAIN: "EAGAIN"
        case EHOSTUNREACH: "EHOSTUNREACH"
        case ETERM: "ETERM"
        case EINTR: "EINTR"
        case EINVAL: "EINVAL"
        case ENOTSUP: "ENOTSUP"
        case EMSGSIZE: "EMSGSIZE"
        case EFSM: "EFSM"
        case ENOTSOCK: "ENOTSOCK"
        case EPROTONOSUPPORT: "EPROTONOSUPPORT"
        case ENOCOMPATPROTO: "ENOCOMPATPROTO"
        case EADDRINUSE: "EADDRINUSE"
        case EADDRNOTAVAIL: "EADDRNOTAVAIL"
        case ENODEV: "ENODEV"
        case ENOENT: "ENOENT"
        case EMTHREAD: "EMTHREAD"
        case EMFILE: "EMFILE"
        case ENOMEM: "ENOMEM"
        case EFAULT: "EFAULT"
        case EBADF: "EBADF"
        case ECONNREFUSED: "ECONNREFUSED"
        default: "errno \(code)"
        }
    }

    /// `EAGAIN`: a non-blocking call would block, or a send/receive timeout expired.
    public static let again = ZMQError(code: EAGAIN)
    /// `EHOSTUNREACH`: a ROUTER with `routerMandatory` was asked to send to an unknown routing id.
    public static let hostUnreachable = ZMQError(code: EHOSTUNREACH)
    /// `ETERM`: the socket's context was shut down or terminated.
    public static let terminated = ZMQError(code: ETERM)
    /// `EINTR`: a signal interrupted a blocking call.
    public static let interrupted = ZMQError(code: EINTR)
    /// `EINVAL`: an invalid argument (bad option value, malformed endpoint or key, ...).
    public static let invalid = ZMQError(code: EINVAL)
    /// `ENOTSUP`: the operation is not supported by this socket type or libzmq build.
    public static let notSupported = ZMQError(code: ENOTSUP)
    /// `EMSGSIZE`: a message is too large.
    public static let messageTooLarge = ZMQError(code: EMSGSIZE)
    /// `EFSM`: the operation is not allowed in the socket's current state (e.g. REQ sending twice).
    public static let wrongState = ZMQError(code: EFSM)
    /// `ENOTSOCK`: the socket was already closed.
    public static let notSocket = ZMQError(code: ENOTSOCK)
    /// `EPROTONOSUPPORT`: the endpoint's transport is not supported.
    public static let protocolNotSupported = ZMQError(code: EPROTONOSUPPORT)
    /// `ENOCOMPATPROTO`: the transport is not compatible with the socket type.
    public static let incompatibleProtocol = ZMQError(code: ENOCOMPATPROTO)
    /// `EADDRINUSE`: the address to bind is already in use.
    public static let addressInUse = ZMQError(code: EADDRINUSE)
    /// `EADDRNOTAVAIL`: the address to bind is not local.
    public static let addressNotAvailable = ZMQError(code: EADDRNOTAVAIL)
    /// `ENODEV`: the interface named in the endpoint does not exist.
    public static let noDevice = ZMQError(code: ENODEV)
    /// `ENOENT`: the endpoint to unbind/disconnect was never bound/connected.
    public static let noEntry = ZMQError(code: ENOENT)
    /// `EMTHREAD`: no I/O thread is available.
    public static let noIOThread = ZMQError(code: EMTHREAD)
    /// `EMFILE`: the socket or file-descriptor limit was reached.
    public static let tooManyOpenFiles = ZMQError(code: EMFILE)
    /// `EBADF`: a file descriptor (e.g. a closed ``EventFD``) is not valid.
    public static let badFileDescriptor = ZMQError(code: EBADF)
}

/// The single errno funnel: returns `rc` unless it is `-1`, in which case it throws
/// the calling thread's `zmq_errno()` as a ``ZMQError``.
@inline(__always)
@discardableResult
func check(_ rc: Int32) throws(ZMQError) -> Int32 {
    if rc == -1 { throw ZMQError.current() }
    return rc
}

/// `check(_:)` for `ssize_t`-returning system calls (`read`/`write` on an eventfd).
/// `zmq_errno()` returns `errno`, so the same funnel applies.
@inline(__always)
@discardableResult
func check(_ rc: Int) throws(ZMQError) -> Int {
    if rc == -1 { throw ZMQError.current() }
    return rc
}

/// `check(_:)` for calls that report failure with a `NULL` pointer
/// (`zmq_ctx_new`, `zmq_socket`, `zmq_z85_encode`, ...).
@inline(__always)
func check<P>(_ pointer: P?) throws(ZMQError) -> P {
    guard let pointer else { throw ZMQError.current() }
    return pointer
}

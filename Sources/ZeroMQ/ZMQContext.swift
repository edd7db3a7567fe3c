internal import CZeroMQ
internal import Synchronization

/// A libzmq context: the owner of I/O threads and the factory of sockets.
///
/// The context frees its libzmq handle in ``terminate()`` (idempotent) or, at the
/// latest, in `deinit`. Every ``ZMQSocket`` keeps its context alive, so the context
/// is never terminated underneath a socket object that still exists.
///
/// Shutdown sequence for a server: call ``shutdown()`` from any thread so that the
/// socket-owning threads' blocking calls fail with ``ZMQError/terminated``; each of
/// those threads closes its sockets; then call ``terminate()``.
///
/// Thread safety: libzmq contexts are thread safe, and so is this type.
public final class ZMQContext: @unchecked Sendable {
    // Why the unchecked conformance is safe: `handle` is immutable and libzmq documents context
    // handles as thread safe. Its lifetime is guarded by `state`: makeSocket/shutdown touch
    // the handle only while holding the lock and seeing `.open`; terminate flips the state
    // out of `.open` under the lock exactly once and only then calls zmq_ctx_term, after
    // which no code path touches the handle again. All other stored properties are
    // immutable Sendable values.

    private enum LifeState: Sendable {
        case open
        case terminating
        case terminated
    }

    private let handle: UnsafeMutableRawPointer
    private let state = Mutex<LifeState>(.open)

    /// The number of libzmq I/O threads this context was created with.
    public let ioThreads: Int32

    /// Creates a context.
    /// - Parameters:
    ///   - ioThreads: libzmq I/O threads (`ZMQ_IO_THREADS`); one is plenty for a few hundred MB/s.
    ///   - blocky: `ZMQ_BLOCKY`. When `false`, new sockets default to ``ZMQSocket/linger`` 0
    ///     instead of -1 (forever), so ``terminate()`` does not wait for unsent messages
    ///     unless a socket sets a linger explicitly.
    public init(ioThreads: Int32 = 1, blocky: Bool = true) throws(ZMQError) {
        let ctx = try check(zmq_ctx_new())
        do throws(ZMQError) {
            try check(zmq_ctx_set(ctx, ZMQ_IO_THREADS, ioThreads))
            try check(zmq_ctx_set(ctx, ZMQ_BLOCKY, blocky ? 1 : 0))
        } catch {
            Self.term(ctx)
            throw error
        }
        self.handle = ctx
        self.ioThreads = ioThreads
    }

    deinit {
        terminate()
    }

    /// Creates a socket of `type`.
    ///
    /// The returned socket must be used by one thread only for its whole life; create it
    /// on the thread that will use it.
    /// - Throws: ``ZMQError/terminated`` once ``shutdown()`` or ``terminate()`` was called;
    ///   ``ZMQError/tooManyOpenFiles`` when `ZMQ_MAX_SOCKETS` is reached.
    public func makeSocket(_ type: ZMQSocketType) throws(ZMQError) -> ZMQSocket {
        let result: Result<UnsafeMutableRawPointer, ZMQError> = state.withLock { state in
            guard case .open = state else { return .failure(.terminated) }
            guard let socket = zmq_socket(handle, type.cValue) else { return .failure(.current()) }
            return .success(socket)
        }
        return ZMQSocket(handle: try result.get(), type: type, context: self)
    }

    /// Shuts the context down without freeing it (`zmq_ctx_shutdown`): blocking calls in
    /// other threads return ``ZMQError/terminated``, and so does every later call on the
    /// context's sockets except `close`. Safe to call from any thread, any number of times.
    public func shutdown() {
        state.withLock { state in
            guard case .open = state else { return }
            // Only fails with EFAULT for an invalid context, which `.open` rules out.
            _ = zmq_ctx_shutdown(handle)
        }
    }

    /// Terminates and frees the context (`zmq_ctx_term`, retried on `EINTR`).
    ///
    /// Blocks until every socket of the context is closed and, for sockets with a
    /// non-zero linger, until their pending messages are sent or the linger expires.
    /// Idempotent: later calls (and concurrent ones) return immediately.
    public func terminate() {
        let shouldTerminate = state.withLock { state -> Bool in
            guard case .open = state else { return false }
            state = .terminating
            return true
        }
        guard shouldTerminate else { return }
        Self.term(handle)
        state.withLock { $0 = .terminated }
    }

    /// `zmq_ctx_term`, retried while a signal interrupts it. Its only other failure is
    /// `EFAULT` for an invalid handle, which the callers rule out.
    private static func term(_ handle: UnsafeMutableRawPointer) {
        while true {
            do throws(ZMQError) {
                try check(zmq_ctx_term(handle))
                return
            } catch {
                if error != .interrupted { return }
            }
        }
    }

    /// Whether ``terminate()`` has started or finished.
    public var isTerminated: Bool {
        state.withLock { state in
            if case .open = state { return false }
            return true
        }
    }
}

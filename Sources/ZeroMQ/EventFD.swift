internal import CZeroMQ
internal import Synchronization

/// A Linux `eventfd(2)` counter (`EFD_NONBLOCK | EFD_CLOEXEC`) used to wake a
/// socket-owning thread that sleeps in ``ZMQPoller/poll(timeoutMilliseconds:)``.
///
/// Typical use: producers append to a reply outbox and call ``signal()`` when it goes from
/// empty to non-empty; the socket thread polls ``fileDescriptor`` for ``ZMQEvents/pollIn``,
/// calls ``drain()`` and then empties the outbox.
///
/// Thread safety: `Sendable`. The kernel makes concurrent `write`/`read` on an eventfd
/// atomic; the descriptor number itself is guarded by a lock so that ``close()`` can never
/// race with a ``signal()`` into writing to a closed (or reused) descriptor. The owner closes
/// it with ``close()`` (or by dropping the last reference).
public final class EventFD: Sendable {
    /// The descriptor, or `-1` once closed. Every use happens under the lock.
    private let descriptor: Mutex<Int32>

    /// Creates an eventfd with counter 0.
    /// - Throws: ``ZMQError/tooManyOpenFiles`` and other `eventfd(2)` errors.
    public init() throws(ZMQError) {
        let fd = try check(eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)))
        descriptor = Mutex(fd)
    }

    deinit {
        close()
    }

    /// The descriptor to poll for ``ZMQEvents/pollIn``, or `-1` once closed.
    public var fileDescriptor: Int32 {
        descriptor.withLock { $0 }
    }

    /// Adds 1 to the counter, making the descriptor readable. Callable from any thread.
    /// If the counter is at its maximum (`EAGAIN`) the descriptor is already readable, so
    /// that is treated as success.
    /// - Throws: ``ZMQError/badFileDescriptor`` after ``close()``.
    public func signal() throws(ZMQError) {
        let failure: ZMQError? = descriptor.withLock { fd in
            guard fd >= 0 else { return .badFileDescriptor }
            var one: UInt64 = 1
            while true {
                do throws(ZMQError) {
                    try check(write(fd, &one, MemoryLayout<UInt64>.size))
                    return nil
                } catch {
                    if error == .interrupted { continue }
                    if error == .again { return nil }
                    return error
                }
            }
        }
        if let failure { throw failure }
    }

    /// Resets the counter to 0 so the descriptor stops being readable. Without
    /// `EFD_SEMAPHORE` one `read` returns the whole counter and zeroes it, so this is a single
    /// system call (two when a signal interrupts it).
    /// - Returns: the sum of the signals consumed (`0` if it was not signalled).
    /// - Throws: ``ZMQError/badFileDescriptor`` after ``close()``.
    @discardableResult
    public func drain() throws(ZMQError) -> UInt64 {
        let result: Result<UInt64, ZMQError> = descriptor.withLock { fd in
            guard fd >= 0 else { return .failure(.badFileDescriptor) }
            while true {
                var value: UInt64 = 0
                do throws(ZMQError) {
                    try check(read(fd, &value, MemoryLayout<UInt64>.size))
                    return .success(value)
                } catch {
                    if error == .interrupted { continue }
                    if error == .again { return .success(0) }
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    /// Closes the descriptor. Idempotent; later ``signal()``/``drain()`` calls throw
    /// ``ZMQError/badFileDescriptor``. Call it only once the descriptor is no longer in a
    /// ``ZMQPoller``.
    public func close() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = CZeroMQ.close(fd)
            fd = -1
        }
    }
}

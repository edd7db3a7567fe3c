internal import CZeroMQ

/// Readiness flags for polling (`ZMQ_POLLIN`/`ZMQ_POLLOUT`/`ZMQ_POLLERR`) and for
/// ``ZMQSocket/events`` (`ZMQ_EVENTS`).
public struct ZMQEvents: OptionSet, Sendable, Hashable {
    /// The raw `short` flag bits.
    public let rawValue: Int16

    /// Wraps raw flag bits.
    public init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// `ZMQ_POLLIN`: at least one message can be received (for a file descriptor: readable).
    public static let pollIn = ZMQEvents(rawValue: Int16(ZMQ_POLLIN))
    /// `ZMQ_POLLOUT`: at least one message can be sent (for a file descriptor: writable).
    public static let pollOut = ZMQEvents(rawValue: Int16(ZMQ_POLLOUT))
    /// `ZMQ_POLLERR`: an error condition (file descriptors only).
    public static let pollError = ZMQEvents(rawValue: Int16(ZMQ_POLLERR))

    /// Whether ``pollIn`` is set: a receive would not block.
    public var canReceive: Bool { contains(.pollIn) }
    /// Whether ``pollOut`` is set: a send would not block.
    public var canSend: Bool { contains(.pollOut) }
}

/// A reusable `zmq_poll` set of sockets and raw file descriptors.
///
/// Build it once on the socket-owning thread, then call ``poll(timeoutMilliseconds:)``
/// in the event loop and read ``returnedEvents(at:)``; polling does not allocate.
/// The poller holds strong references to its sockets; like them it must stay on one thread.
///
/// ```swift
/// let poller = ZMQPoller()
/// let routerIndex = poller.add(router, events: .pollIn)
/// let wakeIndex = poller.add(fileDescriptor: outboxSignal.fileDescriptor, events: .pollIn)
/// while true {
///     try poller.poll()
///     if poller.returnedEvents(at: wakeIndex).canReceive { outboxSignal.drain(); /* send replies */ }
///     if poller.returnedEvents(at: routerIndex).canReceive { /* receive requests */ }
/// }
/// ```
public final class ZMQPoller {
    private var items: [zmq_pollitem_t] = []
    /// `sockets[i]` is the socket polled by `items[i]`, or `nil` for a file descriptor.
    private var sockets: [ZMQSocket?] = []

    /// Creates an empty poller.
    public init() {}

    /// The number of polled items.
    public var count: Int { items.count }

    /// Adds a socket; returns its index for ``returnedEvents(at:)``.
    @discardableResult
    public func add(_ socket: ZMQSocket, events: ZMQEvents = .pollIn) -> Int {
        items.append(zmq_pollitem_t(socket: socket.handle, fd: -1, events: events.rawValue, revents: 0))
        sockets.append(socket)
        return items.count - 1
    }

    /// Adds a raw file descriptor (e.g. ``EventFD/fileDescriptor``); returns its index.
    @discardableResult
    public func add(fileDescriptor: Int32, events: ZMQEvents = .pollIn) -> Int {
        items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: events.rawValue, revents: 0))
        sockets.append(nil)
        return items.count - 1
    }

    /// Changes the requested events of the item at `index` (e.g. add ``ZMQEvents/pollOut``
    /// only while replies are waiting for a full peer queue). Empty = ignore the item.
    public func setEvents(_ events: ZMQEvents, at index: Int) {
        items[index].events = events.rawValue
    }

    /// The requested events of the item at `index`.
    public func requestedEvents(at index: Int) -> ZMQEvents {
        ZMQEvents(rawValue: items[index].events)
    }

    /// The events the last ``poll(timeoutMilliseconds:)`` reported for the item at `index`.
    public func returnedEvents(at index: Int) -> ZMQEvents {
        ZMQEvents(rawValue: items[index].revents)
    }

    /// Removes every item (and releases the sockets).
    public func removeAll() {
        items.removeAll(keepingCapacity: true)
        sockets.removeAll(keepingCapacity: true)
    }

    /// Waits until at least one item is ready or the timeout expires (`zmq_poll`).
    /// - Parameter timeoutMilliseconds: `-1` waits forever, `0` returns at once.
    /// - Returns: the number of items with returned events (`0` on timeout).
    /// - Throws: ``ZMQError/interrupted`` when a signal arrived (call again);
    ///   ``ZMQError/terminated`` when a polled socket's context was shut down;
    ///   ``ZMQError/notSocket`` when a polled socket was closed.
    @discardableResult
    public func poll(timeoutMilliseconds: Int = -1) throws(ZMQError) -> Int {
        for index in sockets.indices {
            guard let socket = sockets[index] else { continue }
            items[index].socket = try socket.liveHandle()
            items[index].revents = 0
        }
        let count = Int32(items.count)
        let rc = items.withUnsafeMutableBufferPointer { buffer in
            zmq_poll(buffer.baseAddress, count, timeoutMilliseconds)
        }
        return Int(try check(rc))
    }
}

/// ZMQPoller holds sockets, so it is bound to their thread.
@available(*, unavailable, message: "a ZMQPoller holds sockets, which must stay on one thread")
extension ZMQPoller: Sendable {}

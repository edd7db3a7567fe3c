internal import CZeroMQ

/// Socket transport events reported by ``ZMQSocket/startMonitor(_:events:)`` (`ZMQ_EVENT_*`).
public struct ZMQMonitorEvents: OptionSet, Sendable, Hashable {
    /// The raw `ZMQ_EVENT_*` bits.
    public let rawValue: UInt32

    /// Wraps raw event bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A connect completed. Value: the connection's file descriptor.
    public static let connected = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_CONNECTED))
    /// A connect is pending. Value: error code.
    public static let connectDelayed = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_CONNECT_DELAYED))
    /// A connect is being retried. Value: the reconnect interval in ms.
    public static let connectRetried = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_CONNECT_RETRIED))
    /// A bind succeeded. Value: the listening file descriptor.
    public static let listening = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_LISTENING))
    /// A bind failed. Value: `errno`.
    public static let bindFailed = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_BIND_FAILED))
    /// A connection was accepted. Value: its file descriptor.
    public static let accepted = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_ACCEPTED))
    /// Accepting a connection failed. Value: `errno`.
    public static let acceptFailed = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_ACCEPT_FAILED))
    /// A connection's descriptor was closed. Value: the descriptor.
    public static let closed = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_CLOSED))
    /// Closing a descriptor failed. Value: `errno`.
    public static let closeFailed = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_CLOSE_FAILED))
    /// A session was broken (peer vanished, protocol error, over-size message, ...).
    /// Value: the descriptor.
    public static let disconnected = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_DISCONNECTED))
    /// The monitor was stopped; the last event it sends.
    public static let monitorStopped = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_MONITOR_STOPPED))
    /// A security handshake failed for an unspecified reason. Value: `errno`.
    public static let handshakeFailedNoDetail = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL))
    /// A security handshake (and ZAP authentication, if any) succeeded.
    public static let handshakeSucceeded = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_HANDSHAKE_SUCCEEDED))
    /// A handshake failed on a protocol error. Value: a `ZMQ_PROTOCOL_ERROR_*` code.
    public static let handshakeFailedProtocol = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL))
    /// A handshake failed authentication (e.g. ZAP denied). Value: the ZAP status code.
    public static let handshakeFailedAuth = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_HANDSHAKE_FAILED_AUTH))
    /// Every event (`ZMQ_EVENT_ALL`).
    public static let all = ZMQMonitorEvents(rawValue: UInt32(ZMQ_EVENT_ALL))
}

/// One event read from a monitor socket by ``ZMQSocket/receiveMonitorEvent(dontWait:)``.
public struct ZMQMonitorEvent: Sendable, Hashable {
    /// The event (exactly one bit of ``ZMQMonitorEvents``).
    public var event: ZMQMonitorEvents
    /// The event's value (descriptor, `errno`, interval, ... see the event's documentation).
    public var value: UInt32
    /// The affected endpoint, e.g. `tcp://127.0.0.1:45123`.
    public var endpoint: String

    /// Creates a monitor event.
    public init(event: ZMQMonitorEvents, value: UInt32, endpoint: String) {
        self.event = event
        self.value = value
        self.endpoint = endpoint
    }
}

extension ZMQSocket {
    /// Starts publishing this socket's transport events on a `PAIR` socket bound at
    /// `endpoint` (an `inproc://` address; `zmq_socket_monitor`). Connect a ``ZMQSocketType/pair``
    /// socket of the same context to it and read with ``receiveMonitorEvent(dontWait:)``.
    public func startMonitor(_ endpoint: String, events: ZMQMonitorEvents = .all) throws(ZMQError) {
        try check(zmq_socket_monitor(try liveHandle(), endpoint, Int32(bitPattern: events.rawValue)))
    }

    /// Stops the monitor started by ``startMonitor(_:events:)``; it emits
    /// ``ZMQMonitorEvents/monitorStopped`` last.
    public func stopMonitor() throws(ZMQError) {
        try check(zmq_socket_monitor(try liveHandle(), nil, 0))
    }

    /// Reads one event on a `PAIR` socket connected to a monitor endpoint.
    /// - Throws: as ``receive(dontWait:)``; ``ZMQError/wrongState`` if the frames are not
    ///   a monitor event.
    public func receiveMonitorEvent(dontWait: Bool = false) throws(ZMQError) -> ZMQMonitorEvent {
        let header = try receive(dontWait: dontWait)
        guard header.more, header.bytes.count == 6 else { throw ZMQError.wrongState }
        let endpoint = try receive()
        let event = header.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: UInt16.self) }
        let value = header.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 2, as: UInt32.self) }
        return ZMQMonitorEvent(
            event: ZMQMonitorEvents(rawValue: UInt32(event)),
            value: value,
            endpoint: String(decoding: endpoint.bytes, as: UTF8.self)
        )
    }
}

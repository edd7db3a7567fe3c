internal import CZeroMQ

/// Typed socket options. Readable options are throwing properties (`try socket.linger`);
/// every option has a `set…` method (`try socket.setLinger(0)`). Options that libzmq
/// cannot read back (``setRouterMandatory(_:)``, ``setProbeRouter(_:)``) only have a setter.
extension ZMQSocket {
    // MARK: Lifecycle and queues

    /// `ZMQ_LINGER` in milliseconds: how long pending outgoing messages are kept after
    /// ``close()``. `-1` waits forever (libzmq's default), `0` discards them at once.
    public var linger: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_LINGER) }
    }

    /// Sets ``linger`` (milliseconds; `-1` = forever, `0` = discard at once).
    public func setLinger(_ milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_LINGER, milliseconds)
    }

    /// `ZMQ_MAXMSGSIZE`: the largest inbound message a peer may send, in bytes; `-1` = no limit.
    /// libzmq disconnects a peer that sends a larger one.
    public var maxMessageSize: Int64 {
        get throws(ZMQError) { try int64Option(ZMQ_MAXMSGSIZE) }
    }

    /// Sets ``maxMessageSize`` (bytes; `-1` = no limit). Set before bind/connect.
    public func setMaxMessageSize(_ bytes: Int64) throws(ZMQError) {
        try setOption(ZMQ_MAXMSGSIZE, bytes)
    }

    /// `ZMQ_SNDHWM`: outgoing messages queued per peer before sends block / fail with
    /// ``ZMQError/again`` / are dropped (pattern dependent); `0` = no limit.
    public var sendHighWaterMark: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_SNDHWM) }
    }

    /// Sets ``sendHighWaterMark``. Set before bind/connect.
    public func setSendHighWaterMark(_ messages: Int32) throws(ZMQError) {
        try setOption(ZMQ_SNDHWM, messages)
    }

    /// `ZMQ_RCVHWM`: incoming messages queued per peer; `0` = no limit.
    public var receiveHighWaterMark: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_RCVHWM) }
    }

    /// Sets ``receiveHighWaterMark``. Set before bind/connect.
    public func setReceiveHighWaterMark(_ messages: Int32) throws(ZMQError) {
        try setOption(ZMQ_RCVHWM, messages)
    }

    /// `ZMQ_RCVBUF`: the kernel's receive buffer for the socket's connections, in bytes; `-1`
    /// (the default) leaves the operating system's.
    public var receiveBufferSize: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_RCVBUF) }
    }

    /// Sets ``receiveBufferSize``. Set before bind/connect.
    public func setReceiveBufferSize(_ bytes: Int32) throws(ZMQError) {
        try setOption(ZMQ_RCVBUF, bytes)
    }

    /// `ZMQ_IMMEDIATE`: queue messages only to completed connections.
    public var immediate: Bool {
        get throws(ZMQError) { try boolOption(ZMQ_IMMEDIATE) }
    }

    /// Sets ``immediate``.
    public func setImmediate(_ enabled: Bool) throws(ZMQError) {
        try setOption(ZMQ_IMMEDIATE, enabled)
    }

    // MARK: Routing

    /// `ZMQ_ROUTER_MANDATORY` (ROUTER only, write-only): when `true`, sending to an unknown
    /// routing id fails with ``ZMQError/hostUnreachable`` instead of silently dropping the message.
    public func setRouterMandatory(_ enabled: Bool) throws(ZMQError) {
        try setOption(ZMQ_ROUTER_MANDATORY, enabled)
    }

    /// `ZMQ_PROBE_ROUTER` (ROUTER/DEALER/REQ, write-only): send an empty message to each
    /// new peer on connect so a ROUTER learns our routing id before we speak.
    public func setProbeRouter(_ enabled: Bool) throws(ZMQError) {
        try setOption(ZMQ_PROBE_ROUTER, enabled)
    }

    /// `ZMQ_ROUTING_ID`: the id a ROUTER peer sees for this socket (empty = let the ROUTER
    /// generate one).
    public var routingId: [UInt8] {
        get throws(ZMQError) { try bytesOption(ZMQ_ROUTING_ID, capacity: 255) }
    }

    /// Sets ``routingId`` (1…255 bytes, must not start with a zero byte). Set before connect.
    public func setRoutingId(_ id: [UInt8]) throws(ZMQError) {
        try setOption(ZMQ_ROUTING_ID, bytes: id)
    }

    /// `ZMQ_SUBSCRIBE` (SUB only): receive messages starting with `prefix` (empty = all).
    public func subscribe(_ prefix: [UInt8] = []) throws(ZMQError) {
        try setOption(ZMQ_SUBSCRIBE, bytes: prefix)
    }

    /// `ZMQ_UNSUBSCRIBE` (SUB only): remove a subscription added with ``subscribe(_:)``.
    public func unsubscribe(_ prefix: [UInt8] = []) throws(ZMQError) {
        try setOption(ZMQ_UNSUBSCRIBE, bytes: prefix)
    }

    // MARK: Timeouts

    /// `ZMQ_RCVTIMEO` in milliseconds: a blocking receive fails with ``ZMQError/again``
    /// after this long; `-1` = wait forever (the default).
    public var receiveTimeout: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_RCVTIMEO) }
    }

    /// Sets ``receiveTimeout`` (milliseconds; `-1` = forever).
    public func setReceiveTimeout(_ milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_RCVTIMEO, milliseconds)
    }

    /// `ZMQ_SNDTIMEO` in milliseconds: a blocking send fails with ``ZMQError/again``
    /// after this long; `-1` = wait forever (the default).
    public var sendTimeout: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_SNDTIMEO) }
    }

    /// Sets ``sendTimeout`` (milliseconds; `-1` = forever).
    public func setSendTimeout(_ milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_SNDTIMEO, milliseconds)
    }

    // MARK: Heartbeats (ZMTP 3.1 PING/PONG)

    /// `ZMQ_HEARTBEAT_IVL` in milliseconds: send a PING this often; `0` = off.
    public var heartbeatInterval: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_HEARTBEAT_IVL) }
    }

    /// Sets ``heartbeatInterval`` (milliseconds; `0` = off).
    public func setHeartbeatInterval(_ milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_HEARTBEAT_IVL, milliseconds)
    }

    /// `ZMQ_HEARTBEAT_TIMEOUT` in milliseconds: drop the connection if no traffic arrives
    /// this long after a PING (defaults to the interval).
    public var heartbeatTimeout: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_HEARTBEAT_TIMEOUT) }
    }

    /// Sets ``heartbeatTimeout`` (milliseconds).
    public func setHeartbeatTimeout(_ milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_HEARTBEAT_TIMEOUT, milliseconds)
    }

    /// `ZMQ_HEARTBEAT_TTL` in milliseconds: asks the peer to drop us after this long without
    /// traffic. libzmq keeps it in deciseconds, so it reads back rounded down to 100 ms.
    public var heartbeatTTL: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_HEARTBEAT_TTL) }
    }

    /// Sets ``heartbeatTTL`` (milliseconds, 0…6_553_500, stored in units of 100 ms).
    public func setHeartbeatTTL(_ milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_HEARTBEAT_TTL, milliseconds)
    }

    // MARK: Security (CURVE, ZAP)

    /// `ZMQ_CURVE_SERVER`: act as CURVE server (requires `setCurveSecretKey(_:)`).
    public var curveServer: Bool {
        get throws(ZMQError) { try boolOption(ZMQ_CURVE_SERVER) }
    }

    /// Sets ``curveServer``. Set before bind.
    public func setCurveServer(_ enabled: Bool) throws(ZMQError) {
        try setOption(ZMQ_CURVE_SERVER, enabled)
    }

    /// `ZMQ_CURVE_PUBLICKEY` as 32 raw bytes (a CURVE client's long-term public key).
    public var curvePublicKey: [UInt8] {
        get throws(ZMQError) { try bytesOption(ZMQ_CURVE_PUBLICKEY, capacity: ZMQCurve.keyLength) }
    }

    /// Sets `ZMQ_CURVE_PUBLICKEY` (client's long-term public key) from 32 raw bytes.
    public func setCurvePublicKey(_ key: [UInt8]) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_PUBLICKEY, key)
    }

    /// Sets `ZMQ_CURVE_PUBLICKEY` from a 40-character Z85 string.
    public func setCurvePublicKey(_ z85: String) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_PUBLICKEY, try ZMQCurve.decodeKey(z85))
    }

    /// Sets `ZMQ_CURVE_SECRETKEY` (our long-term secret key, client or server) from 32 raw bytes.
    /// The secret key is deliberately not readable back through this API.
    public func setCurveSecretKey(_ key: [UInt8]) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_SECRETKEY, key)
    }

    /// Sets `ZMQ_CURVE_SECRETKEY` from a 40-character Z85 string.
    public func setCurveSecretKey(_ z85: String) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_SECRETKEY, try ZMQCurve.decodeKey(z85))
    }

    /// `ZMQ_CURVE_SERVERKEY` as 32 raw bytes (the server's public key, on a CURVE client).
    public var curveServerKey: [UInt8] {
        get throws(ZMQError) { try bytesOption(ZMQ_CURVE_SERVERKEY, capacity: ZMQCurve.keyLength) }
    }

    /// Sets `ZMQ_CURVE_SERVERKEY` from 32 raw bytes; this makes the socket a CURVE client.
    public func setCurveServerKey(_ key: [UInt8]) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_SERVERKEY, key)
    }

    /// Sets `ZMQ_CURVE_SERVERKEY` from a 40-character Z85 string.
    public func setCurveServerKey(_ z85: String) throws(ZMQError) {
        try setCurveKey(ZMQ_CURVE_SERVERKEY, try ZMQCurve.decodeKey(z85))
    }

    /// Makes this socket a CURVE client of the server whose public key is `serverKey`, with the
    /// pair `publicKey`/`secretKey` (all Z85, 40 characters). Set before connect.
    public func setCurveClient(serverKey: String, publicKey: String, secretKey: String) throws(ZMQError) {
        try setCurveServerKey(serverKey)
        try setCurvePublicKey(publicKey)
        try setCurveSecretKey(secretKey)
    }

    private func setCurveKey(_ name: Int32, _ key: [UInt8]) throws(ZMQError) {
        guard key.count == ZMQCurve.keyLength else { throw ZMQError.invalid }
        try setOption(name, bytes: key)
    }

    /// `ZMQ_ZAP_DOMAIN`: the domain sent to the ZAP handler; setting it (even for NULL
    /// security) makes a server consult the handler at ``ZMQ/zapEndpoint``.
    public var zapDomain: String {
        get throws(ZMQError) { try stringOption(ZMQ_ZAP_DOMAIN, capacity: 256) }
    }

    /// Sets ``zapDomain`` (at most 254 bytes). Set before bind.
    public func setZapDomain(_ domain: String) throws(ZMQError) {
        try setOption(ZMQ_ZAP_DOMAIN, bytes: Array(domain.utf8))
    }

    // MARK: State (read-only)

    /// `ZMQ_FD`: a file descriptor that becomes readable when ``events`` may have changed.
    /// Edge-triggered: always re-check ``events`` (or use ``ZMQPoller``) after it fires.
    public var fileDescriptor: Int32 {
        get throws(ZMQError) { try int32Option(ZMQ_FD) }
    }

    /// `ZMQ_EVENTS`: whether a message can be received / sent right now without blocking.
    public var events: ZMQEvents {
        get throws(ZMQError) { ZMQEvents(rawValue: Int16(truncatingIfNeeded: try int32Option(ZMQ_EVENTS))) }
    }

    /// `ZMQ_RCVMORE`: whether the last received frame has more frames following it.
    public var hasMore: Bool {
        get throws(ZMQError) { try boolOption(ZMQ_RCVMORE) }
    }
}

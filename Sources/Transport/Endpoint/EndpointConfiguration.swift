/// Limits and socket settings of a ROUTER endpoint: the same for every use-case endpoint; the
/// admin endpoint has its own (``AdminEndpoint``).
public struct EndpointConfiguration: Sendable, Hashable {
    /// Requests accepted but not yet answered, per endpoint; beyond it the reply is `overloaded`.
    public var maxInFlight: Int = 1024
    /// The longest a request may wait for its turn: one that has waited longer when it would
    /// start (in the endpoint's queue, for a read thread) is answered `overloaded` instead, with
    /// no effect. The in-flight count bounds memory; this bounds the wait (a queue bounded by
    /// count alone lets accepted requests wait seconds under overload). The store applies the
    /// same target to its own queues (group commit, pooled connections).
    public var queueTimeTarget: Duration = .milliseconds(250)
    /// Largest accepted message (`ZMQ_MAXMSGSIZE` and the multipart total), in bytes.
    public var maxMessageSize: Int = 1 << 20
    /// Most requests taken off the socket and handed to the endpoint's handler in one hop.
    ///
    /// Small enough that a pipelining client is never left with nothing in flight: the first
    /// replies of a batch leave only once the whole batch has been taken and answered, so with
    /// 64 taken at once a client with 64 in flight waits on every batch. Measured with the C
    /// client against GetRestaurant at 64 in flight (alternating svcd instances, 2026-12-07):
    /// 8 and 16 alike, 32 0.87–0.99 × 16, 64 0.84–0.87 × 16, 4 0.76–0.97 × 16.
    public var maxBatch: Int = 16
    /// ZMTP heartbeat interval, so dead peers are noticed.
    public var heartbeatIntervalMilliseconds: Int32 = 2000
    /// A peer silent this long after a heartbeat is disconnected.
    public var heartbeatTimeoutMilliseconds: Int32 = 6000
    /// How long closing a socket may spend sending replies still queued.
    public var lingerMilliseconds: Int32 = 500
    /// Outgoing messages queued per peer before replies to it are dropped (and counted).
    public var sendHighWaterMark: Int32 = 10_000
    /// Incoming messages queued per peer before libzmq stops reading from it.
    public var receiveHighWaterMark: Int32 = 10_000

    /// The service's CURVE secret key (Z85) when the endpoints are CURVE servers (the admin
    /// endpoint always; the use-case endpoints with `svcd --client-keys`): traffic is encrypted
    /// and the context's ``ZAPAuthenticator`` decides who may connect. `nil`: plaintext.
    public var curveServerSecretKey: String?

    /// The defaults: 1024 in flight, a 250 ms queue-time target, 1 MiB messages, batches of 64,
    /// 2 s / 6 s heartbeats.
    public init() {}
}

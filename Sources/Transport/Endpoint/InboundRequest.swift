import WireContract
/// The routing frames of a message up to and including the empty delimiter, to address the
/// reply: the routing id the ROUTER prepended, any further routing frames, then the delimiter
/// (implied, not stored). Kept without an array of frames so that the common envelope (a DEALER
/// or REQ peer: routing id + delimiter) costs no allocation (see ``RoutingID``).
struct Envelope: Sendable {
    /// The first frame: the peer's routing id.
    let routingId: RoutingID
    /// Routing frames between the routing id and the delimiter (none for direct peers).
    let hops: [[UInt8]]

    /// The envelope of a message whose first frame is `routingId`, then `hops`.
    init(routingId: [UInt8], hops: [[UInt8]]) {
        self.routingId = RoutingID(routingId)
        self.hops = hops
    }
}

/// A request that passed the envelope checks, on its way from the socket thread to the
/// endpoint's ``RequestHandler``.
struct InboundRequest: Sendable {
    /// The routing frames up to and including the empty delimiter, to address the reply.
    let envelope: Envelope
    /// The decoded body.
    let request: WireRequest
    /// When the socket thread received it (``EndpointClock``).
    let receivedAt: Duration
    /// Who sent it: its caller's number in the endpoint's ``CallerDirectory``.
    let caller: Int
    /// svcd's span id for it (``RequestSpan``).
    let spanId: UInt64

    /// svcd's span for it, and the caller's trace context: what its log lines carry.
    var span: RequestSpan { RequestSpan(spanId: spanId, caller: request.callerTrace) }
}

/// `ContinuousClock` instants as durations since one fixed instant. `ContinuousClock.Instant`
/// is a resilient standard-library type: holding one made `InboundRequest` a type of unknown
/// layout, so every copy and destroy of a request went through runtime value witnesses.
/// `Duration` is frozen.
enum EndpointClock {
    /// The fixed instant.
    private static let origin = ContinuousClock.now

    /// `ContinuousClock.now`, as the duration since ``origin``.
    static var now: Duration { origin.duration(to: ContinuousClock.now) }

    /// The `ContinuousClock` instant `duration` after ``origin``.
    static func instant(_ duration: Duration) -> ContinuousClock.Instant { origin + duration }
}

/// A reply on its way from the endpoint's handler to the socket thread.
struct OutboundReply: Sendable {
    /// The routing frames of the request.
    let envelope: Envelope
    /// The encoded reply body.
    let body: [UInt8]
    /// When the socket thread received the request (``EndpointClock``), for the statistics.
    let receivedAt: Duration
    /// The reply's error code, `nil` for a success, for the statistics.
    let outcome: WireErrorCode?
    /// How long the request waited for its turn before its use case started, for the
    /// statistics; `nil` when it never ran (refused, malformed, answered by the transport).
    var waited: Duration? = nil
    /// The request's caller (``InboundRequest/caller``), for the statistics.
    var caller: Int = CallerDirectory.anonymousIndex
    /// The request's span (``InboundRequest/span``), for the `trace` line of its answer.
    var span: RequestSpan? = nil
}

extension OutboundReply {
    /// The reply to `request`.
    init(_ request: InboundRequest, body: [UInt8], outcome: WireErrorCode?, waited: Duration? = nil, span: RequestSpan? = nil) {
        self.init(envelope: request.envelope, body: body, receivedAt: request.receivedAt, outcome: outcome, waited: waited, caller: request.caller, span: span ?? request.span)
    }
}

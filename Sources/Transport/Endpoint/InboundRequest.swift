/// A request that passed the envelope checks, on its way from the socket thread to the actor.
struct InboundRequest: Sendable {
    /// The routing frames up to and including the empty delimiter, to address the reply.
    let envelope: [[UInt8]]
    /// The decoded body.
    let request: WireRequest
    /// When the socket thread received it.
    let receivedAt: ContinuousClock.Instant
    /// After this instant the request may no longer start.
    let deadline: ContinuousClock.Instant?
}

/// A reply on its way from the actor to the socket thread.
struct OutboundReply: Sendable {
    /// The routing frames of the request.
    let envelope: [[UInt8]]
    /// The encoded reply body.
    let body: [UInt8]
}

/// What a ROUTER endpoint does with the requests its socket thread accepted: the one part in
/// which a use-case endpoint (``EndpointHost``) and the admin endpoint (``AdminHost``) differ.
/// Socket, poll, frame and envelope checks (every body is a ``WireRequest``), in-flight bound,
/// outbox, drain and statistics are the same ``SocketLoop`` for both.
protocol RequestHandler: Sendable {
    /// Answers every request of every batch exactly once, by pushing its reply to the
    /// endpoint's ``ReplyOutbox``, until the socket thread ends the stream; returns once every
    /// request taken is answered. Called once, on the socket thread (under its task-executor
    /// preference, see ``SocketThreadExecutor``).
    func serve(_ requests: AsyncStream<[InboundRequest]>) async
}

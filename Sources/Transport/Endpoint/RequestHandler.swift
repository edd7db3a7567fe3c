/// What a ROUTER endpoint does with the requests its socket thread accepted: the one part in
/// which a use-case endpoint (``EndpointHost``), the admin endpoint (``AdminHost``) and the event
/// log (``EventLogHost``) differ.
/// Socket, poll, frame and envelope checks (every body is a ``WireRequest``), in-flight bound,
/// outbox, drain and statistics are the same ``SocketLoop`` for both.
protocol RequestHandler: Sendable {
    /// Answers every request of every batch exactly once, by pushing its reply to the
    /// endpoint's ``ReplyOutbox``, until the socket thread ends the stream; returns once every
    /// request taken is answered. Called once, on the socket thread (under its task-executor
    /// preference, see ``SocketThreadExecutor``).
    func serve(_ requests: RequestBatches) async
}

extension RequestHandler {
    /// Runs `answer` for every request of every batch as a task of its own on the global
    /// executor (an answer that waits for a store must not hold up the socket thread), until the
    /// stream ends and every answer has run.
    func answerEachOnGlobalExecutor(_ requests: RequestBatches, _ answer: @escaping @Sendable (InboundRequest) async -> Void) async {
        await withDiscardingTaskGroup { group in
            for await batch in requests {
                for inbound in batch {
                    group.addTask(executorPreference: globalConcurrentExecutor) { await answer(inbound) }
                }
            }
        }
    }
}

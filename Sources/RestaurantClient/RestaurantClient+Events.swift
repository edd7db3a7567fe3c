import WireContract
import ZeroMQ

extension RestaurantClient {
    /// Every event after `seq` (0: from the start of the log), in seq order, each exactly once,
    /// and then every new one as it is written, for as long as the sequence is iterated; only
    /// `types` when given. Follows the client's instances with failover: when the instance it
    /// follows dies, it goes on from another without a gap or a repeat. The instances' event
    /// endpoints come from their `endpoints.json` (clients made from fixed use-case addresses
    /// have none). See ``RestaurantEventStream``.
    ///
    /// ```swift
    /// for try await event in client.events(after: lastApplied) {
    ///     try apply(event)            // and store event.seq with it
    /// }
    /// ```
    public func events(after seq: Int64 = 0, types: Set<EventType>? = nil) -> RestaurantEventStream {
        RestaurantEventStream(
            after: max(0, seq),
            follower: EventFollower.Configuration(types: types, roster: roster, options: options, context: transport.context)
        )
    }

    /// One page of the event log: the events after `seq` (only `types` when given, the filter
    /// applied before `limit`, 1…1000), and the log's highest seq now. Tries the instances in
    /// turn, moving on after a timeout, an unreachable instance or a transient refusal.
    /// - Throws: the service's error (`gone` when the log no longer keeps the events after
    ///   `seq`: its ``RestaurantClientError/firstSeq`` is the oldest it keeps), a timeout, or why
    ///   no instance could be reached.
    public func eventLog(after seq: Int64, limit: Int = 100, types: Set<EventType>? = nil) async throws(RestaurantClientError) -> EventLogPage {
        let roster = self.roster, options = self.options, context = transport.context
        let requestID = "rc-log-\(nextRequest.add(1, ordering: .relaxed).newValue)"
        let outcome = await DedicatedThread.run(named: "rc-EventLog") { () -> Result<EventLogPage, RestaurantClientError> in
            var lastFailure: RestaurantClientError = .unavailable("no instance serves the event log")
            let order = roster.failoverOrder(turn: roster.nextTurn(), lastTried: Array(repeating: -1, count: roster.count), excluded: [])
            for index in order {
                let endpoints: EventEndpoints
                switch EventEndpoints.resolve(index, roster: roster, options: options) {
                case .success(let resolved): endpoints = resolved
                case .failure(let error):
                    lastFailure = error
                    continue
                }
                switch EventLogExchange.read(
                    after: seq, limit: limit, types: types, endpoints: endpoints, context: context, timeout: options.timeout, requestID: requestID
                ) {
                case .success(let page):
                    roster.recordReply(index)
                    return .success(page)
                case .failure(let error):
                    if let code = error.wireCode, !code.isSafeToResend { return .failure(error) }
                    roster.recordFailure(index, fileStamp: nil)
                    lastFailure = error
                }
            }
            return .failure(lastFailure)
        }
        return try outcome.get()
    }
}

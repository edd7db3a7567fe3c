import WireContract

/// Where one instance publishes and serves its events, as read from its `endpoints.json`, with
/// the CURVE keys to reach them (the use-case endpoints' server key: the event endpoints share
/// it and their allow-list).
struct EventEndpoints: Sendable {
    let stream: String
    let log: String
    /// CURVE: the server's public key and our pair; `nil`: plaintext.
    let curve: (serverKey: String, clientKeys: ClientKeys)?

    /// The event endpoints of instance `index` of `roster`, or why it has none now.
    static func resolve(_ index: Int, roster: FailoverRoster, options: RestaurantClientOptions) -> Result<EventEndpoints, RestaurantClientError> {
        let instance = roster.instances[index]
        switch instance.resolve() {
        case .failure(let error):
            return .failure(error)
        case .success(let resolved):
            guard let stream = resolved.eventStream, let log = resolved.eventLog else {
                return .failure(.unavailable("instance \(index) has no event endpoints (its endpoints.json lists no \(EndpointsFile.Key.events) and \(EndpointsFile.Key.eventLog); events need svcd's endpoints.json)"))
            }
            guard let serverKey = resolved.serverKey else { return .success(EventEndpoints(stream: stream, log: log, curve: nil)) }
            guard let keys = instance.clientKeys ?? options.clientKeys else {
                return .failure(.invalidArgument(
                    "instance \(index) serves CURVE only (svcd --client-keys): give RestaurantClientOptions.clientKeys or SvcdInstance.keyed(_:clientKeys:)"))
            }
            return .success(EventEndpoints(stream: stream, log: log, curve: (serverKey, keys)))
        }
    }
}

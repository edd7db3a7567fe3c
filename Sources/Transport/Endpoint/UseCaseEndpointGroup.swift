import ServiceLifecycle

/// Every use-case endpoint of a service as one `Service`: `run()` serves them all side by side,
/// and a graceful shutdown reaches all of them at once, so they drain concurrently.
///
/// A `ServiceGroup` shuts its services down one after another, waiting for each to return
/// before it signals the next; with one service per endpoint, the stop took the sum of every
/// endpoint's drain (on two saturated cores about 0.3 s each, 22 times). Here it takes the
/// longest one. Endpoints cannot simply start stopping early on their own: a service that returns
/// before the group signalled it ends the group's graceful shutdown with an error.
public struct UseCaseEndpointGroup: Service {
    /// The endpoints, in the order they were built.
    public let endpoints: [UseCaseEndpoint]

    /// Groups `endpoints`, each already started (bound).
    public init(_ endpoints: [UseCaseEndpoint]) {
        self.endpoints = endpoints
    }

    /// Serves on every endpoint until graceful shutdown; then each refuses new requests, answers
    /// those in flight and closes, all at the same time. Returns once every one has closed.
    public func run() async {
        // Child tasks inherit the graceful-shutdown signal of this service's task.
        await withDiscardingTaskGroup { group in
            for endpoint in endpoints {
                group.addTask { await endpoint.run() }
            }
        }
    }
}

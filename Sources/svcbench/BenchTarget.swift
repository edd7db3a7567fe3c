/// The two servers a run can target. Both get the same DEALER client and the same request bytes.
enum BenchTarget: String, Sendable, Hashable, CaseIterable {
    /// The raw libzmq ROUTER echo in this process: the floor of what ZeroMQ itself costs.
    case echo
    /// svcd's GetRestaurant endpoint, built by `buildService(configuration:)` in this process.
    case service
}

/// The two kinds of server a run can target; the kind decides how replies are checked. Both get
/// the same DEALER client and, in the default mode, the same request bytes.
enum BenchTarget: String, Sendable, Hashable, CaseIterable {
    /// The raw libzmq ROUTER echo in this process: the floor of what ZeroMQ itself costs.
    case echo
    /// svcd: its GetRestaurant endpoint, built by `buildService(configuration:)` in this process;
    /// with `--curve`, GetRestaurant and RegisterUser of svcd child processes.
    case service
}

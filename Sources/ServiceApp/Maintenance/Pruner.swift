import ServiceLifecycle

/// A service that forgets old rows: at start and then every ``interval`` until the service group
/// shuts down. ``prune()`` logs its own failures; the next round retries.
protocol Pruner: Service {
    /// The time between two rounds.
    var interval: Duration { get }
    /// One round of pruning.
    func prune() async
}

extension Pruner {
    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await prune()
                try? await Task.sleep(for: interval)
            }
        }
    }
}

/// Waits for shutdown work with a limit, for work that may never end: postgres-nio (1.33) drops a
/// query sent just as its connection closes without failing it, and the connection it was given
/// then never goes back to the pool, so cancelling the pool's `run()` can wait for it forever.
/// Past the limit the work is left running; the process is stopping, and it holds nothing else.
struct BoundedShutdown {
    /// How long a store's close waits for its own tasks.
    static let storeCloseLimit: Duration = .seconds(3)

    /// Runs `work` in a task of its own and waits for it at most `limit`; whether it finished.
    static func run(atMost limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let (outcomes, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(2))
        Task {
            await work()
            continuation.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            continuation.yield(false)
        }
        var iterator = outcomes.makeAsyncIterator()
        let finished = await iterator.next() ?? false
        timer.cancel()
        continuation.finish()
        return finished
    }
}

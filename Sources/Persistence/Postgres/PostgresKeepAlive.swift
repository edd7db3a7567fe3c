import PostgresNIO
import Synchronization

/// Keeps the pool's idle connections used: every ``PostgresStore/Configuration/keepAliveInterval``
/// it holds as many connections at once as the pool keeps open when idle (its minimum) and runs
/// ``statement`` on each, so that a firewall or NAT that forgets quiet connections does not
/// forget these, and one the server or the network closed is found by the keep-alive, not by a
/// request.
///
/// postgres-nio's pool can do this itself, but it schedules a timer (three tasks, a sleep and a
/// cancellation) every time a connection goes back to the pool, which cost a fifth of the
/// instructions of each PlaceOrder and GetRestaurant (callgrind, `svcbench --store postgres
/// --in-flight 1`: 1.61 M → 1.24 M and 414 k → 328 k per request). Connections above the minimum
/// need nothing: the pool closes them after a minute unused.
final class PostgresKeepAlive: Sendable {
    /// What each kept-alive connection runs (named, so it can be told apart in
    /// `pg_stat_activity`).
    static let statement = "SELECT 1 AS keep_alive"

    private let task = Mutex<Task<Void, Never>?>(nil)

    /// A keep-alive that runs from ``start(for:)``.
    init() {}

    /// Starts keeping `store`'s idle connections used (held weakly: a store dropped without
    /// being closed stops it).
    func start(for store: PostgresStore) {
        let interval = store.configuration.keepAliveInterval
        let connections = PostgresStore.minimumConnections(store.configuration)
        guard connections > 0 else { return }
        let running = Task { [weak store] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let store, !Task.isCancelled else { return }
                await Self.use(connections, of: store)
            }
        }
        task.withLock { $0 = running }
    }

    /// Stops it.
    func stop() {
        task.withLock { $0 }?.cancel()
    }

    /// Runs ``statement`` on `count` connections held at once: each is leased while the ones
    /// before it are still held, so the pool hands out a different one each time, its idle ones
    /// first. A failure ends the round (the store has logged it if the database is away).
    private static func use(_ count: Int, of store: PostgresStore) async {
        guard count > 0 else { return }
        try? await store.read { connection, logger in
            try await connection.run(PostgresQuery(unsafeSQL: statement), logger)
            await use(count - 1, of: store)
        }
    }
}

import Logging
import PostgresNIO
import Synchronization

/// Which server of the database URL's list the store's pool connects to, and the move to another
/// when that one stops fitting the URL's `target_session_attrs` (libpq's rules: with
/// `read-write`, a server whose sessions accept writes; with `primary`, one that is not a
/// standby; with `any`, one that accepts a connection).
///
/// A pool (postgres-nio's `PostgresClient`) connects to one host, so a move replaces the pool: a
/// new one for the chosen server starts, and the old one is shut down (its waiting operations end
/// in a connection error, which their callers hear as `unavailable`). Nothing is probed while
/// operations succeed: the store calls ``suspect()`` when one finds the database away or
/// read-only, and the search probes every server at once, every ``searchInterval`` until one
/// fits. The server in use is kept when it still fits, so that a former primary coming back
/// does not take the pool away from the promoted one; otherwise the first fitting server in the
/// URL's order wins.
///
/// With one server and `any` there is nothing to choose: the pool stays on it, as without this.
final class PostgresServerChoice: Sendable {
    /// How a server answered a probe.
    enum Probe: Sendable {
        /// It fits the URL's `target_session_attrs`.
        case fits
        /// It answers but does not fit (a standby, or read-only); the reason says which.
        case unfit(String)
        /// It could not be reached or refused the connection.
        case unreachable(String)
        /// It refused this service's login or database (``PostgresAccessRefused``).
        case refused(PostgresAccessRefused)

        /// Whether the server may be used.
        var fits: Bool {
            if case .fits = self { return true }
            return false
        }
    }

    /// How often the search probes the servers again while none fits.
    static let searchInterval: Duration = .milliseconds(250)

    private struct State {
        var index: Int
        var client: PostgresClient
        var runner: Task<Void, Never>?
        /// Pools replaced by a move, shutting down; awaited by ``close()``.
        var retired: [Task<Void, Never>] = []
        var started = false
        var closed = false
        var search: Task<Void, Never>?
    }

    /// The URL's servers, in its order.
    let servers: [PostgresURL.Server]
    private let url: PostgresURL
    private let makeClient: @Sendable (PostgresURL.Server) -> PostgresClient
    private let probeServer: @Sendable (PostgresURL.Server) async -> Probe
    private let logger: Logger
    private let state: Mutex<State>

    /// A choice among `url`'s servers, using the first until ``start()`` or ``chooseAtStart(within:)``
    /// says otherwise. `makeClient` makes a pool for a server; `probe` asks a server whether it fits.
    init(
        url: PostgresURL, logger: Logger, makeClient: @escaping @Sendable (PostgresURL.Server) -> PostgresClient,
        probe: @escaping @Sendable (PostgresURL.Server) async -> Probe
    ) {
        self.url = url
        servers = url.servers
        self.makeClient = makeClient
        probeServer = probe
        self.logger = logger
        state = Mutex(State(index: 0, client: makeClient(url.servers[0])))
    }

    /// The pool of the server in use.
    var client: PostgresClient { state.withLock { $0.client } }

    /// The server in use.
    var server: PostgresURL.Server { servers[state.withLock { $0.index }] }

    /// Starts the pool of the server in use; whether this call started it (not an earlier one,
    /// and not after ``close()``).
    @discardableResult
    func start() -> Bool {
        state.withLock { state in
            guard !state.started, !state.closed else { return false }
            state.started = true
            let client = state.client
            state.runner = Task { await client.run() }
            return true
        }
    }

    /// Stops searching and shuts down every pool, and returns once they have stopped.
    func close() async {
        let (search, runners) = state.withLock { state in
            state.closed = true
            defer {
                state.search = nil
                state.runner = nil
                state.retired = []
            }
            return (state.search, state.retired + [state.runner].compactMap { $0 })
        }
        search?.cancel()
        await search?.value
        for runner in runners { runner.cancel() }
        for runner in runners { await runner.value }
    }

    /// Cancels what is running without waiting (a store dropped without being closed).
    func cancel() {
        state.withLock { state in
            state.closed = true
            state.search?.cancel()
            state.runner?.cancel()
            for runner in state.retired { runner.cancel() }
        }
    }

    /// Before ``start()``: probes the servers until one fits, for at most `patience`, and uses it.
    /// A server that refuses the login or database throws ``PostgresAccessRefused`` at once. When
    /// none fits in time, the first stays in use (the pool's own wait then reports it away) and
    /// the returned reasons say why each did not fit.
    @discardableResult
    func chooseAtStart(within patience: Duration) async throws -> [String] {
        let deadline = ContinuousClock.now + patience
        while true {
            let probes = await probeAll()
            for probe in probes {
                if case .refused(let refused) = probe { throw refused }
            }
            if let index = pick(probes) {
                state.withLock { state in
                    guard !state.started, index != state.index else { return }
                    state.index = index
                    state.client = makeClient(servers[index])
                }
                return []
            }
            guard ContinuousClock.now < deadline else { return reasons(probes) }
            try await Task.sleep(for: Self.searchInterval)
        }
    }

    /// An operation found the database away or read-only: unless a search runs already, starts
    /// one, which moves the pool to a fitting server (or keeps it, if the one in use still fits).
    /// Does nothing when the URL leaves no choice.
    func suspect() {
        guard url.choosesServer else { return }
        state.withLock { state in
            guard state.started, !state.closed, state.search == nil else { return }
            state.search = Task { await self.search() }
        }
    }

    private func search() async {
        var warned = false
        defer { state.withLock { $0.search = nil } }
        while !Task.isCancelled {
            let probes = await probeAll()
            if let index = pick(probes) {
                move(to: index, probes: probes)
                return
            }
            if !warned {
                warned = true
                logger.warning("no server of the database URL fits; trying again every 250 ms", metadata: [
                    "targetSessionAttrs": "\(url.targetSession.rawValue)", "servers": "\(reasons(probes).joined(separator: "; "))",
                ])
            }
            try? await Task.sleep(for: Self.searchInterval)
        }
    }

    /// Swaps the pool for one of `servers[index]`, unless it is the one in use.
    private func move(to index: Int, probes: [Probe]) {
        let moved = state.withLock { state -> (from: Int, Task<Void, Never>?)? in
            guard !state.closed, index != state.index else { return nil }
            let old = (state.index, state.runner)
            let client = makeClient(servers[index])
            state.index = index
            state.client = client
            state.runner = Task { await client.run() }
            if let runner = old.1 { state.retired.append(runner) }
            return old
        }
        guard let moved else { return }
        moved.1?.cancel()
        logger.notice("PostgreSQL: moved to another server of the database URL", metadata: [
            "server": "\(servers[index])", "from": "\(servers[moved.from])", "because": "\(describe(probes[moved.from]))",
        ])
    }

    /// Every server's answer, probed at once.
    private func probeAll() async -> [Probe] {
        await withTaskGroup(of: (Int, Probe).self) { group in
            for (index, server) in servers.enumerated() {
                group.addTask { (index, await self.probeServer(server)) }
            }
            var probes = [Probe](repeating: .unreachable("not probed"), count: servers.count)
            for await (index, probe) in group { probes[index] = probe }
            return probes
        }
    }

    /// The server in use if it fits, else the first that fits in the URL's order.
    private func pick(_ probes: [Probe]) -> Int? {
        let current = state.withLock { $0.index }
        if probes[current].fits { return current }
        return probes.firstIndex { $0.fits }
    }

    private func reasons(_ probes: [Probe]) -> [String] {
        zip(servers, probes).map { server, probe in "\(server): \(describe(probe))" }
    }

    private func describe(_ probe: Probe) -> String {
        switch probe {
        case .fits: "fits"
        case .unfit(let reason), .unreachable(let reason): reason
        case .refused(let refused): refused.description
        }
    }
}

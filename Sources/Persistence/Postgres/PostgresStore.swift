import Domain
import Foundation
import Logging
import Metrics
import NIOPosix
import PostgresNIO
import Telemetry
import ServiceLifecycle
import Synchronization

/// The PostgreSQL database behind the repositories when several svcd instances share one store.
///
/// PostgreSQL decides every rule that spans requests: each write is one transaction (or one
/// statement) whose conditions the database checks under its own locks and constraints, never a
/// check in this process followed by a write, so the rules hold across any number of instances.
/// Nothing is cached in this process: every read asks the database, so a write acknowledged by
/// any instance is seen by the next read on every instance.
///
/// A write is acknowledged only after its `COMMIT` returned (`synchronous_commit` as the server
/// has it, `on` by default: durable). An operation waits at most ``Configuration/connectionWait``
/// for a connection: while the database cannot be reached the caller gets
/// ``RepositoryFailure/unavailable(reason:)`` that soon (nothing was written). While other
/// operations hold connections the database answers, and a wait for one of them is overload,
/// not an outage: it lasts at most ``Configuration/queueTimeTarget`` and ends in
/// ``RepositoryFailure/busy(reason:)``, without the outage warning. A statement the
/// server ends (lock or statement timeout) is `unavailable` too; a write whose commit was sent
/// but not answered is ``RepositoryFailure/outcomeUnknown(reason:)``.
///
/// The connection pool (postgres-nio's `PostgresClient`) runs from ``start()`` until this
/// service's graceful shutdown, so start-up can migrate and seed before the service group runs.
public final class PostgresStore: Service, Sendable {
    /// How to reach the database and how patient to be.
    public struct Configuration: Sendable {
        /// The database.
        public var url: PostgresURL
        /// Connections this process keeps open at most.
        public var maximumConnections = 32
        /// The longest a request waits for a connection before it is answered `unavailable`: while
        /// the database cannot be reached, requests wait for a connection, so this is how soon they
        /// are answered then.
        // 1.5 s, not 2: the contract promises an answer within 2 s of the request, and on a loaded
        // machine receiving, queueing and replying take a few hundred milliseconds of their own.
        public var connectionWait: Duration = .milliseconds(1500)
        /// The longest a request waits for a connection while others are in use by running
        /// operations (the database answers, it is busy): then it is answered `overloaded`,
        /// with no effect. `nil`: ``connectionWait``.
        public var queueTimeTarget: Duration? = .milliseconds(250)
        /// The server cancels a statement running longer (`statement_timeout`): nothing of it is
        /// written and the request is answered `unavailable`.
        public var statementTimeout: Duration = .seconds(10)
        /// How long start-up (``PostgresStore/migrate()``) waits for a connection, for a database
        /// that is starting at the same time, before giving up.
        public var startupWait: Duration = .seconds(10)
        /// The server gives up waiting for a row lock after this (`lock_timeout`): the same.
        public var lockTimeout: Duration = .seconds(5)
        /// The server ends a session whose transaction has waited this long for its next
        /// statement (`idle_in_transaction_session_timeout`), releasing its locks: an instance
        /// cut off from the database mid-transaction holds up the others' writes of the same
        /// rows at most this long. svcd sends a transaction's statements back to back.
        public var idleInTransactionTimeout: Duration = .seconds(2)

        /// Statements of one kind of batched write (see ``StatementBatcher``) running at once; a
        /// write arriving while this many run waits for one of them and goes in the next.
        public var writeBatches = 2
        /// Rows in one batched statement, at most.
        public var writeBatchRows = 64
        /// Statements of one kind of read by id (``PostgresRowLookup``) running at once; a read
        /// arriving while this many run waits for one of them and goes in the next.
        public var readBatches = 2
        /// Reads in one such statement, at most (a read of several ids, as PlaceOrder's items, counts once).
        public var readBatchRows = 64
        /// Menu items whose last seen stock this instance remembers (``StockHints``), so that
        /// their orders go as one statement.
        public var stockHintItems = 4096
        /// How often the connections the pool keeps open when idle are used, if nothing else
        /// used them (``PostgresKeepAlive``).
        public var keepAliveInterval: Duration = .seconds(30)
        /// How often, once no event came for a second, the instance that numbers the cluster's
        /// events looks for unnumbered ones (``PostgresEventSequencer``): other instances'
        /// commits do not wake it, so this bounds how late their events are numbered while the
        /// cluster is quiet.
        public var eventIdleInterval: Duration = .milliseconds(100)
        /// How often every instance reads the log's last number whatever its notifications said:
        /// a listening connection that died silently still leaves every event published within
        /// about this long.
        public var eventPollInterval: Duration = .milliseconds(500)

        /// The event loop the store's connections and operations run on; by default the one
        /// loop every store of the process shares (``PostgresStore/sharedEventLoop``). A test
        /// that stalls its loop on purpose gives its store one of its own.
        public var eventLoop: any EventLoop = PostgresStore.sharedEventLoop

        /// How long an operation may run in all once connected, before this process stops
        /// waiting for a connection that went silent: a little more than the server allows.
        var runLimit: Duration { statementTimeout + .seconds(2) }

        /// A configuration for `url` with the defaults.
        public init(url: PostgresURL) {
            self.url = url
        }
    }

    /// Where the database is (password hidden in its description).
    public let url: PostgresURL
    /// Whether writes find the database's disk full (SQLSTATE 53100), until one commits again.
    public let fullness: StorageFullness
    let configuration: Configuration
    let clock: any WallClock
    let logger: Logger
    /// Encodes the events writes append; `nil`: events are written nowhere (a benchmark's
    /// comparison only).
    let events: (any EventEncoding)?
    /// The newest end of the event log as this instance knows it, for the live stream.
    let tail = EventTail(lastSeq: 0)
    /// Numbers committed events and follows the numbers other instances hand out.
    let sequencer = PostgresEventSequencer()
    /// Uses the idle connections now and then.
    let keepAlive = PostgresKeepAlive()
    /// The server of the URL in use and its connection pool.
    let servers: PostgresServerChoice
    /// The connection pool's logger, which the event listener's connection logs to as well.
    let backgroundLogger: Logger
    /// Ends an operation's wait when its connection closes.
    let lossWatch = ConnectionLossWatch()
    /// The stock this instance last saw of each menu item, which orders expect.
    let stockHints: StockHints
    /// Whether the last operation reached the database; a change is logged once.
    private let reachable = Atomic<Bool>(true)
    /// How many operations have succeeded so far: one that waited for a connection in vain
    /// while this moved was waiting for a busy database, not an absent one.
    private let successes = Atomic<UInt64>(0)
    /// When an operation last succeeded, in nanoseconds since ``startedAt``.
    private let lastSuccess = Atomic<Int64>(0)
    private let startedAt = ContinuousClock.now

    /// Whether the last operation that succeeded or failed for the database's sake reached it
    /// (`false` from the outage warning until "answers again").
    var isReachable: Bool { reachable.load(ordering: .relaxed) }

    /// A store for `configuration`; nothing connects until ``start()``. `clock` stamps
    /// idempotency keys' bindings and events; `events` encodes the events every write that
    /// changes something appends in its own transaction (`nil` appends none: only for measuring
    /// what the event log costs). `logger` gets this store's messages (the database becoming
    /// unreachable and reachable again, once each); `backgroundLogger` gets the connection
    /// pool's own, one per connection attempt.
    public init(
        configuration: Configuration, clock: any WallClock = SystemWallClock(), events: (any EventEncoding)?, logger: Logger,
        backgroundLogger: Logger? = nil
    ) {
        self.url = configuration.url
        fullness = StorageFullness(place: "\(configuration.url)", logger: logger, metrics: MetricsSystem.factory)
        self.configuration = configuration
        self.clock = clock
        self.events = events
        stockHints = StockHints(capacity: configuration.stockHintItems)
        self.logger = logger
        self.backgroundLogger = backgroundLogger ?? logger
        let poolLogger = backgroundLogger ?? logger
        servers = PostgresServerChoice(
            url: configuration.url, logger: logger,
            makeClient: { server in
                PostgresClient(configuration: Self.clientConfiguration(configuration, server: server), eventLoopGroup: configuration.eventLoop, backgroundLogger: poolLogger)
            },
            probe: { server in await Self.probe(server, configuration: configuration, logger: poolLogger) }
        )
    }

    deinit {
        // A store dropped without close() (e.g. in tests) still closes its connections.
        servers.cancel()
        sequencer.stop()
        keepAlive.stop()
    }

    /// The connection pool of the server in use.
    var client: PostgresClient { servers.client }

    /// Records whether an operation reached the database, logging when that changes.
    private func note(_ outcome: Result<Void, any Error>) {
        switch outcome {
        case .success:
            successes.add(1, ordering: .relaxed)
            lastSuccess.store(Self.nanoseconds(ContinuousClock.now - startedAt), ordering: .relaxed)
            if !reachable.exchange(true, ordering: .relaxed) {
                logger.notice("PostgreSQL answers again", metadata: ["database": "\(url)"])
            }
        case .failure(let error):
            // Only a lost connection or no answer in time says the database is away; a lock or
            // statement timeout says it is busy.
            let away = PostgresFailure.isConnectionLoss(error) || PostgresFailure.isReadOnly(error) || (error as? RepositoryFailure).map { failure in
                if case .unavailable = failure { return true }
                return false
            } ?? false
            guard away else { return }
            let reason = PostgresFailure.summary(error)
            servers.suspect()
            if reachable.exchange(false, ordering: .relaxed) {
                logger.warning("PostgreSQL cannot be reached; requests are answered unavailable until it answers again", metadata: [
                    "database": "\(url)", "reason": "\(reason)",
                ])
            }
        }
    }

    /// The event loop every store's connections run on unless configured otherwise: one thread.
    /// Each request already crosses from its task to the loop and back; with one loop every
    /// connection's replies are read in the same wake-ups, where a loop per core added
    /// cross-thread wake-ups and no throughput.
    public static var sharedEventLoop: any EventLoop { sharedLoopGroup.next() }

    /// The group of ``sharedEventLoop``, kept for the life of the process.
    private static let sharedLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// The TLS settings of `url`'s `sslmode`, and whether TLS is required (not just preferred).
    private static func tlsConfiguration(_ url: PostgresURL) -> (TLSConfiguration, required: Bool)? {
        switch url.tlsMode {
        case .disable:
            return nil
        case .prefer, .require:
            var unchecked = TLSConfiguration.makeClientConfiguration()
            unchecked.certificateVerification = .none
            return (unchecked, url.tlsMode == .require)
        case .verifyFull:
            return (.makeClientConfiguration(), true)
        }
    }

    /// The startup parameters of every connection: its name, and the timeouts that end slow
    /// statements and abandoned transactions.
    private static func startupParameters(_ configuration: Configuration) -> [(String, String)] {
        [
            ("application_name", "svcd"),
            ("statement_timeout", "\(milliseconds(configuration.statementTimeout))"),
            ("lock_timeout", "\(milliseconds(configuration.lockTimeout))"),
            // A transaction left open by an instance that lost the network holds its row locks
            // until this ends it: short, so that the other instances wait at most this long.
            ("idle_in_transaction_session_timeout", "\(milliseconds(configuration.idleInTransactionTimeout))"),
        ]
    }

    /// A connection of its own to `server`, outside the pool: the event listener's (see
    /// ``PostgresEventSequencer``) and the probes of ``PostgresServerChoice``.
    static func connectionConfiguration(_ configuration: Configuration, server: PostgresURL.Server) throws -> PostgresConnection.Configuration {
        let url = configuration.url
        let tls: PostgresConnection.Configuration.TLS
        if let (settings, required) = tlsConfiguration(url) {
            let context = try NIOSSLContext(configuration: settings)
            tls = required ? .require(context) : .prefer(context)
        } else {
            tls = .disable
        }
        var connection = PostgresConnection.Configuration(
            host: server.host, port: server.port, username: url.user, password: url.password, database: url.database, tls: tls
        )
        connection.options.connectTimeout = .init(configuration.connectionWait)
        connection.options.additionalStartupParameters = startupParameters(configuration)
        return connection
    }

    /// The pool's settings for `server`.
    static func clientConfiguration(_ configuration: Configuration, server: PostgresURL.Server) -> PostgresClient.Configuration {
        let url = configuration.url
        let tls: PostgresClient.Configuration.TLS
        if let (settings, required) = tlsConfiguration(url) {
            tls = required ? .require(settings) : .prefer(settings)
        } else {
            tls = .disable
        }
        var client = PostgresClient.Configuration(
            host: server.host, port: server.port, username: url.user, password: url.password, database: url.database, tls: tls
        )
        client.options.maximumConnections = configuration.maximumConnections
        client.options.minimumConnections = minimumConnections(configuration)
        // The store keeps its idle connections alive itself (PostgresKeepAlive): the pool's
        // keep-alive schedules a timer every time a connection is given back.
        client.options.keepAliveBehavior = nil
        client.options.connectTimeout = configuration.connectionWait
        client.options.additionalStartupParameters = startupParameters(configuration)
        return client
    }

    /// How many connections the pool keeps open while nothing uses them.
    static func minimumConnections(_ configuration: Configuration) -> Int {
        min(2, configuration.maximumConnections - 1)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Whether no operation has succeeded for ``Configuration/connectionWait``: the database
    /// answers nobody (a partition, a hung server), so an operation running that long is given
    /// up rather than held to its run limit.
    private var answersNobody: Bool {
        Self.nanoseconds(ContinuousClock.now - startedAt) - lastSuccess.load(ordering: .relaxed) > Self.nanoseconds(configuration.connectionWait)
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The highest seq of the event log as this instance last heard (from its own numbering, a
    /// notification or a poll).
    public var lastEventSeq: Int64 { tail.lastSeq }

    // MARK: Lifecycle

    /// Starts the connection pool, the event sequencer (``PostgresEventSequencer``) and the
    /// keep-alive of idle connections (``PostgresKeepAlive``). Call once, before any other use.
    public func start() {
        guard servers.start() else { return }
        sequencer.start(for: self)
        keepAlive.start(for: self)
    }

    /// Keeps the pool running until graceful shutdown, then closes it. In the service group this
    /// service comes first, so it shuts down after every endpoint has answered its requests.
    public func run() async throws {
        start()
        try? await gracefulShutdown()
        await close()
    }

    /// Stops the event sequencer and the keep-alive and closes every connection; later operations
    /// fail. Returns within ``BoundedShutdown/storeCloseLimit`` even when a query the server
    /// dropped keeps its connection (with a warning): a stopping svcd must not hang on a database
    /// that went away.
    public func close() async {
        let sequencer = self.sequencer
        let keepAlive = self.keepAlive
        let servers = self.servers
        let closed = await BoundedShutdown.run(atMost: BoundedShutdown.storeCloseLimit) {
            await sequencer.stopAndWait()
            // Not awaited: a keep-alive waiting for a connection ends when the pool closes.
            keepAlive.stop()
            await servers.close()
        }
        if !closed {
            logger.warning("PostgreSQL: connections still held \(BoundedShutdown.storeCloseLimit) into closing (a query the server dropped); closing without them")
        }
    }

    // MARK: Schema and seeding

    /// Creates or updates the schema: every migration of ``PostgresSchema`` not yet recorded in
    /// `schema_migrations` is applied, all in one transaction that first takes an advisory lock,
    /// so instances starting at once wait for each other and each migration runs exactly once.
    /// Returns the names of the migrations this call applied. A role without the privileges the
    /// schema needs is ``PostgresAccessRefused``.
    @discardableResult
    public func migrate() async throws -> [String] {
        do {
            return try await bounded(connectLimit: configuration.startupWait, runLimit: .seconds(120)) { client, logger, progress in
                try await client.withTransaction(logger: logger) { connection in
                    let held = self.holding(connection, progress)
                    defer { self.release(held) }
                    // Another instance may be migrating: wait for it as long as it takes.
                    try await connection.run("SET LOCAL lock_timeout = 0", logger)
                    try await connection.run("SET LOCAL statement_timeout = 0", logger)
                    try await connection.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.Lock.migrations))", logger)
                    try await connection.run(PostgresQuery(unsafeSQL: PostgresSchema.migrationsTable), logger)
                    let applied = Set(try await connection.rows("SELECT name FROM schema_migrations", logger) { try $0.decode(String.self) })
                    var ran: [String] = []
                    for (name, sql) in PostgresSchema.migrations where !applied.contains(name) {
                        for statement in PostgresSchema.statements(of: sql) {
                            try await connection.run(PostgresQuery(unsafeSQL: statement), logger)
                        }
                        try await connection.run("INSERT INTO schema_migrations (name) VALUES (\(name))", logger)
                        ran.append(name)
                    }
                    return ran
                }
            }
        } catch {
            throw PostgresAccessRefused.from(error, url: url, server: servers.server) ?? error
        }
    }

    /// Connects once, outside the pool (which retries a refused connection until its wait ends
    /// and reports only that it had none), to hear the server's own reason for a refusal: a
    /// wrong role or password, or no such database, is ``PostgresAccessRefused`` at once. A
    /// server that is away or slow passes: the pool's wait then says so. Call it before
    /// ``start()``, so nothing else is waiting on the pool meanwhile.
    ///
    /// When the URL leaves a choice (several servers, or `target_session_attrs` other than
    /// `any`), this also picks the server: the first that fits, waiting for one at most
    /// ``Configuration/startupWait`` (a standby being promoted as svcd starts); the reasons each
    /// server did not fit are logged when none did.
    public func checkAccess() async throws {
        if url.choosesServer {
            let reasons = try await servers.chooseAtStart(within: configuration.startupWait)
            if !reasons.isEmpty {
                logger.warning("no server of the database URL fits yet; using the first", metadata: ["servers": "\(reasons.joined(separator: "; "))"])
            } else if servers.servers.count > 1 {
                logger.info("PostgreSQL server chosen", metadata: ["server": "\(servers.server)"])
            }
            return
        }
        if case .refused(let refused) = await Self.probe(servers.server, configuration: configuration, logger: backgroundLogger) {
            throw refused
        }
    }

    /// Connects to `server` outside the pool and asks whether it fits the URL's
    /// `target_session_attrs`, waiting at most ``Configuration/connectionWait`` for it.
    static func probe(_ server: PostgresURL.Server, configuration: Configuration, logger: Logger) async -> PostgresServerChoice.Probe {
        let url = configuration.url
        let wait = configuration.connectionWait
        do {
            return try await OperationDeadline.run(
                connectLimit: wait, runLimit: wait,
                onTimeout: { _ in RepositoryFailure.unavailable(reason: "no answer within \(Int(wait / .milliseconds(1))) ms") }
            ) { progress in
                progress.connected()
                let connection = try await PostgresConnection.connect(
                    on: configuration.eventLoop, configuration: Self.connectionConfiguration(configuration, server: server), id: 0, logger: logger
                )
                let probe: PostgresServerChoice.Probe
                do {
                    switch url.targetSession {
                    case .any:
                        probe = .fits
                    case .readWrite:
                        let readOnly = try await connection.row("SHOW transaction_read_only", logger) { try $0.decode(String.self) }
                        probe = readOnly == "off" ? .fits : .unfit("its sessions are read-only (a standby, or default_transaction_read_only)")
                    case .primary:
                        let recovering = try await connection.row("SELECT pg_is_in_recovery()", logger) { try $0.decode(Bool.self) }
                        probe = recovering == false ? .fits : .unfit("it is a standby (in recovery)")
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
                return probe
            }
        } catch {
            if let refused = PostgresAccessRefused.from(error, url: url, server: server) { return .refused(refused) }
            if case .unavailable(let reason)? = error as? RepositoryFailure { return .unreachable(reason) }
            return .unreachable(PostgresFailure.summary(error))
        }
    }

    /// What in the server's settings lets an acknowledged write be lost when the database server
    /// or its machine crashes, one sentence each; empty when every commit is flushed to disk
    /// before it returns. Read as this service's sessions see them, so settings made for its
    /// database or role count: `fsync = off` (nothing is flushed) and `synchronous_commit = off`
    /// (a commit returns before its flush). svcd logs each as a warning at start-up; it does not
    /// refuse to start, since a throwaway test server may run so on purpose.
    public func durabilityWarnings() async throws -> [String] {
        let settings = try await read { connection, logger in
            try await connection.rows("SELECT current_setting('fsync'), current_setting('synchronous_commit')", logger) {
                try $0.decode((String, String).self)
            }
        }
        guard let (fsync, synchronousCommit) = settings.first else { return [] }
        var warnings: [String] = []
        if fsync == "off" {
            warnings.append("the PostgreSQL server runs with fsync = off: its commits are not flushed to disk, and a crash of its machine can lose writes svcd acknowledged")
        }
        if synchronousCommit == "off" {
            warnings.append("synchronous_commit is off for svcd's sessions: a commit returns before it is flushed, and a crash of the PostgreSQL server can lose writes svcd acknowledged")
        }
        return warnings
    }

    /// Runs `body` while holding the seeding advisory lock (a session lock on a connection kept
    /// for the purpose), so that of several instances started at once with `--seed-sample` one
    /// seeds and the others, waiting here, find the store no longer empty. Waits as long as that
    /// takes, but fails at once when the lock's connection is lost (rather than never returning:
    /// see ``ConnectionLossWatch``).
    public func withSeedingLock<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await bounded(connectLimit: .seconds(30), runLimit: .seconds(24 * 3600)) { client, logger, progress in
            try await client.withConnection { connection in
                let held = self.holding(connection, progress)
                defer { self.release(held) }
                // Another instance may be seeding: wait for it as long as it takes (this connection's
                // usual timeouts come back with RESET before it returns to the pool).
                try await connection.run("SET lock_timeout = 0", logger)
                try await connection.run("SET statement_timeout = 0", logger)
                try await connection.run("SELECT pg_advisory_lock(\(PostgresSchema.Lock.seeding))", logger)
                let outcome: Result<T, any Error>
                do {
                    outcome = .success(try await body())
                } catch {
                    outcome = .failure(error)
                }
                // Closing the session would release the lock too; this releases it now.
                try await connection.run("SELECT pg_advisory_unlock(\(PostgresSchema.Lock.seeding))", logger)
                try await connection.run("RESET lock_timeout", logger)
                try await connection.run("RESET statement_timeout", logger)
                return try outcome.get()
            }
        }
    }

    /// Whether the database answers a trivial query (waiting for a connection at most
    /// ``Configuration/connectionWait``).
    public func ping() async throws {
        try await read { connection, logger in
            try await connection.run("SELECT 1", logger)
        }
    }

    // MARK: Operations

    /// Runs `body` on a pooled connection, outside any explicit transaction, waiting at most the
    /// operation timeout. A database that cannot be reached or gives up is
    /// ``RepositoryFailure/unavailable(reason:)``.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        guard StoreSpan.isTraced else { return try await untracedRead(body) }
        return try await StoreSpan.measure(StoreSpanName.postgresRead, system: StoreSpanName.postgresql) { try await untracedRead(body) }
    }

    /// ``read(_:)`` without a span.
    private func untracedRead<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        do {
            let value = try await bounded { client, logger, progress in
                try await client.withConnection { connection in
                    let held = self.holding(connection, progress)
                    defer { self.release(held) }
                    return try await body(connection, logger)
                }
            }
            note(.success(()))
            return value
        } catch {
            note(.failure(error))
            throw PostgresFailure.uncommitted(error)
        }
    }

    /// Runs `body` as one transaction that `claim` binds, and returns once it is committed.
    ///
    /// With a claim, the transaction first inserts the key's row; a request holding the same
    /// key in another open transaction (on any instance) makes this insert wait until that one
    /// ends, so of two requests with one key exactly one writes. When the key is bound already,
    /// `body` does not run and the claim's answer is thrown (``IdempotentReplay`` or a conflict).
    /// When `body` returns a result, the key's row records it; when it returns none (a refusal),
    /// the transaction is rolled back so the refusal binds nothing.
    ///
    /// Deadlocks and serialization failures are retried (three times in all). A connection lost
    /// or a timeout before `COMMIT` was sent is ``RepositoryFailure/unavailable(reason:)``
    /// (PostgreSQL rolled the transaction back); lost during `COMMIT` it is
    /// ``RepositoryFailure/outcomeUnknown(reason:)``.
    func write<T: Sendable>(
        claim: IdempotencyClaim?, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> (T, StoredWrite?)
    ) async throws -> T {
        let madeAt = clock.now()
        let events = EventRecording.encoder(self.events)
        var attempt = 1
        while true {
            let committing = CommitPhase()
            do {
                let value = try await bounded(onTimeout: committing.timeoutFailure) { client, logger, progress in
                    try await client.withConnection { connection in
                        let held = self.holding(connection, progress)
                        defer { self.release(held) }
                        return try await StoreSpan.measure(StoreSpanName.postgresTransaction, system: StoreSpanName.postgresql) {
                            try await Self.transaction(
                                on: connection, claim: claim, madeAt: madeAt, events: events, committing: committing, logger: logger, body
                            )
                        }
                    }
                }
                note(.success(()))
                fullness.wrote()
                if value.appended { sequencer.wake() }
                return value.value
            } catch let error where PostgresFailure.isRetryable(error) && attempt < 3 {
                attempt += 1
                logger.debug("retrying a write after a deadlock or serialization failure", metadata: ["attempt": "\(attempt)"])
            } catch {
                note(.failure(error))
                throw writeFailure(error)
            }
        }
    }

    /// Runs one statement as its own transaction (autocommit): one round trip. A connection lost
    /// while it ran leaves its outcome unknown (``RepositoryFailure/outcomeUnknown(reason:)``).
    func writeStatement<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        let committing = CommitPhase()
        do {
            let value = try await bounded(onTimeout: committing.timeoutFailure) { client, logger, progress in
                try await client.withConnection { connection in
                    let held = self.holding(connection, progress)
                    defer { self.release(held) }
                    // The caller may have been told `unavailable` already: then this must not run.
                    guard committing.enter() else { throw CancellationError() }
                    do {
                        return try await body(connection, logger)
                    } catch where PostgresFailure.isConnectionLoss(error) {
                        throw RepositoryFailure.outcomeUnknown(reason: "the connection failed while the statement ran: \(PostgresFailure.summary(error))")
                    }
                }
            }
            note(.success(()))
            fullness.wrote()
            return value
        } catch {
            note(.failure(error))
            throw writeFailure(error)
        }
    }

    /// What the caller of a write that failed with `error` is told: a full disk (SQLSTATE 53100)
    /// is ``RepositoryFailure/storageFull(reason:)`` and noted in ``fullness``.
    private func writeFailure(_ error: any Error) -> any Error {
        if PostgresFailure.sqlState(error) == "53100" { return fullness.refused(PostgresFailure.summary(error)) }
        return PostgresFailure.uncommitted(error)
    }

    /// The transaction of ``write(claim:_:)`` on a leased connection: its value, and whether it
    /// appended an event.
    private static func transaction<T: Sendable>(
        on connection: PostgresConnection, claim: IdempotencyClaim?, madeAt: Timestamp, events: (any EventEncoding)?, committing: CommitPhase,
        logger: Logger, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> (T, StoredWrite?)
    ) async throws -> (value: T, appended: Bool) {
        do {
            return try await connection.withTransaction(logger: logger) { connection in
                if let claim {
                    let unrecorded = IdempotencyRecord(key: claim.key, IdempotencyBinding(request: claim.request, recordedResult: []), madeAt: madeAt)
                    let claimed = try await connection.rows(ClaimKey.self, logger) { try ClaimKey.statement.bind(unrecorded, to: &$0) }
                    if claimed.isEmpty {
                        // Bound by a transaction that committed (the insert waited for it).
                        let rows = try await connection.rows(SelectBinding.self, logger) { $0.append(claim.key) }
                        guard let row = rows.first else { throw StoreError.inconsistentWrite("idempotency key \(claim.key) vanished") }
                        throw claim.answer(toBound: try IdempotencyRecord(row).binding())
                    }
                }
                let (value, stored) = try await body(connection, logger)
                if let claim {
                    guard let result = stored?.result else { throw Refusal(value: value) }
                    let recorded = Data(claim.binding(for: result).recordedResult)
                    _ = try await connection.rows(RecordResult.self, logger) { bindings in
                        try bindings.append(recorded)
                        bindings.append(claim.key)
                    }
                }
                // Last, after the write's row locks: see PostgresEventSequencer on key order.
                var appended = false
                if let event = stored?.event {
                    let record: EventRecord?
                    switch event {
                    case .domain(let event): record = events.map { EventRecord($0.encode(event), key: event.key, at: madeAt) }
                    case .prepared(let ready): record = ready.record
                    case .written: record = nil
                    }
                    if let record {
                        try await connection.run(AppendEvent.statement.query(record), logger)
                    }
                    appended = true
                }
                // The caller may have been told `unavailable` already: then this must not commit.
                guard committing.enter() else { throw CancellationError() }
                return (value, appended)
            }
        } catch let failure as PostgresTransactionError {
            if let commitError = failure.commitError {
                // The server's idle timeout ends a session only before it received the COMMIT.
                guard PostgresFailure.isConnectionLoss(commitError), !PostgresFailure.isIdleTransactionEnded(commitError) else { throw commitError }
                throw RepositoryFailure.outcomeUnknown(reason: "the connection failed during COMMIT: \(PostgresFailure.summary(commitError))")
            }
            if let refusal = failure.closureError as? Refusal<T> { return (refusal.value, false) }
            // Before COMMIT: PostgreSQL rolled back (also when the connection died meanwhile).
            throw failure.closureError ?? failure.beginError ?? failure
        }
    }

    /// Tells `progress` that its operation holds `connection` now (the run limit applies from
    /// here) and that it is lost as soon as the connection closes: the caller is then answered at
    /// once, not when the run limit passes (see ``ConnectionLossWatch``). End it with
    /// ``release(_:)`` when the operation is done with the connection.
    func holding(_ connection: PostgresConnection, _ progress: OperationDeadline.Progress) -> ConnectionLossWatch.Registration {
        progress.connected()
        return lossWatch.register(connection) { progress.connectionLost() }
    }

    /// Ends what ``holding(_:_:)`` started.
    func release(_ registration: ConnectionLossWatch.Registration) {
        lossWatch.unregister(registration)
    }

    /// Runs `operation` with the client under ``OperationDeadline``: at most `connectLimit`
    /// (default ``Configuration/connectionWait``) for a connection, `runLimit` (default
    /// ``Configuration/runLimit``) in all; on timeout throws `onTimeout(stage)` (default:
    /// unavailable).
    func bounded<T: Sendable>(
        connectLimit: Duration? = nil, runLimit: Duration? = nil,
        onTimeout: @escaping @Sendable (OperationDeadline.Stage) -> any Error = PostgresStore.unavailableAfterTimeout,
        _ operation: @escaping @Sendable (PostgresClient, Logger, OperationDeadline.Progress) async throws -> T
    ) async throws -> T {
        let client = self.client, logger = self.logger, lossWatch = self.lossWatch
        // Connections held by running operations: waiting then is bounded by the queue-time
        // target (for one of them, or for one more the pool opens). Measured with pyzmq floods
        // on a pool of 2: counting only a full pool let requests that arrived while a connection
        // changed hands wait the whole connection wait (ok p99 1 s instead of 0.3 s). The wait
        // ends in busy when other operations succeeded meanwhile (the database answers, this one
        // did not get a turn), else in unavailable (they hang on a database going away).
        let target = QueueTimeExemption.target(configuration.queueTimeTarget)
        let busy = lossWatch.operationsRunning > 0
        let successesBefore = successes.load(ordering: .relaxed)
        let waitLimit = connectLimit ?? (busy ? min(configuration.connectionWait, target ?? configuration.connectionWait) : configuration.connectionWait)
        // A request's operation is given up once the database has answered nobody for the
        // connection wait (see answersNobody); start-up's and seeding's long ones are not.
        let stall = runLimit == nil && !QueueTimeExemption.isExempt
            ? OperationDeadline.Stall(after: configuration.connectionWait) { [weak self] in self?.answersNobody ?? true }
            : nil
        return try await OperationDeadline.run(
            connectLimit: waitLimit, runLimit: runLimit ?? configuration.runLimit, stall: stall,
            onTimeout: { stage in
                // First, so a write is marked abandoned whatever the caller is told.
                let failure = onTimeout(stage)
                guard stage == .connecting, self.successes.load(ordering: .relaxed) != successesBefore,
                    case .unavailable? = failure as? RepositoryFailure
                else { return failure }
                return RepositoryFailure.busy(reason: "no pooled connection to PostgreSQL came free within \(Int(waitLimit / .milliseconds(1))) ms while others were in use")
            }
        ) { progress in
            try await operation(client, logger, progress)
        }
    }

    /// What a timed-out operation that wrote nothing is told.
    static func unavailableAfterTimeout(_ stage: OperationDeadline.Stage) -> any Error {
        switch stage {
        case .connecting: RepositoryFailure.unavailable(reason: "no connection to PostgreSQL could be had in time")
        case .running: RepositoryFailure.unavailable(reason: "PostgreSQL stopped answering")
        case .lost: RepositoryFailure.unavailable(reason: "the connection to PostgreSQL was lost")
        }
    }
}

/// A write's value carried out of a transaction that is rolled back because the write was
/// refused (so that its idempotency key stays unbound).
private struct Refusal<T: Sendable>: Error {
    let value: T
}

/// Whether a write has reached the point where its outcome may be decided without the caller
/// hearing of it: its `COMMIT` (or autocommit statement) is about to be sent. Decided once, by
/// whichever comes first: the write entering its commit, or the operation timeout or the loss of
/// its connection, which then tells the caller `unavailable` (and the write, finding itself
/// abandoned, rolls back) or, once the commit was sent, that the outcome is unknown.
private final class CommitPhase: Sendable {
    private static let working: UInt8 = 0, committing: UInt8 = 1, abandoned: UInt8 = 2
    private let state = Atomic<UInt8>(CommitPhase.working)

    /// Marks the commit as sent; `false` when the caller was already told `unavailable`, and the
    /// write must not commit.
    func enter() -> Bool {
        let (exchanged, original) = state.compareExchange(expected: Self.working, desired: Self.committing, ordering: .sequentiallyConsistent)
        return exchanged || original == Self.committing
    }

    /// The error the caller gets when the operation's time runs out first: `unavailable` unless
    /// the commit was sent (then the outcome is unknown).
    @Sendable func timeoutFailure(_ stage: OperationDeadline.Stage) -> any Error {
        let (abandoned, _) = state.compareExchange(expected: Self.working, desired: Self.abandoned, ordering: .sequentiallyConsistent)
        if abandoned {
            return PostgresStore.unavailableAfterTimeout(stage)
        }
        if stage == .lost {
            return RepositoryFailure.outcomeUnknown(reason: "the connection to PostgreSQL was lost before the commit was confirmed")
        }
        return RepositoryFailure.outcomeUnknown(reason: "PostgreSQL did not confirm the commit in time")
    }
}

extension PostgresStore {
    /// A write that `claim` binds: one autocommit statement (one round trip) when there is no
    /// claim and no event to append (seeding, or events written nowhere), else a transaction
    /// with the claim and the event (see ``write(claim:_:)``). `body` runs a single statement and
    /// returns its value and, when it succeeded, what it stored.
    func writeOne<T: Sendable>(
        claim: IdempotencyClaim?, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> (T, StoredWrite?)
    ) async throws -> T {
        guard claim != nil || EventRecording.encoder(events) != nil else {
            return try await writeStatement { connection, logger in try await body(connection, logger).0 }
        }
        return try await write(claim: claim, body)
    }

    /// `event` encoded for an `events` row written at `at`, or `nil` when the current task's
    /// writes append no events (``EventRecording``) or the store keeps none.
    func eventRecord(_ event: DomainEvent, at: Timestamp) -> EventRecord? {
        EventRecording.encoder(events).map { EventRecord($0.encode(event), key: event.key, at: at) }
    }

    /// The encoder of the events the current task's writes append; `nil` when they append none.
    var eventEncoder: (any EventEncoding)? {
        EventRecording.encoder(events)
    }
}

/// A write's event, inserted unnumbered as the last statement of its transaction.
enum AppendEvent {
    static let statement = PostgresStatement<EventRecord> { s in s.insert { $0 } }
}

/// A write's first statement with an idempotency key: claim the key with no result recorded yet
/// (a concurrent claimant of the same key waits here until this transaction ends); no row back
/// means it is bound already.
private enum ClaimKey: PreparedSQL {
    static let name = "svc_claim_key"
    static let statement = PostgresStatement<IdempotencyRecord> { s in
        "\(s.insert { $0 }) ON CONFLICT (key) DO NOTHING RETURNING key"
    }
    static var sql: String { statement.sql }
}

/// A key's binding.
enum SelectBinding: PreparedSQL {
    static let name = "svc_select_binding"
    static let sql = "SELECT \(IdempotencyRecord.postgresSelection) FROM idempotency_keys WHERE key = $1"
}

/// A claimed key's recorded result, written in the write's own transaction.
private enum RecordResult: PreparedSQL {
    static let name = "svc_record_result"
    static let sql = "UPDATE idempotency_keys SET result = $1 WHERE key = $2"
}

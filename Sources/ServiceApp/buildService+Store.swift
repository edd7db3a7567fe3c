import Domain
import Logging
import Persistence
import ServiceLifecycle
import Transport

/// The repositories of one store, as the use cases take them.
struct Repositories: Sendable {
    let users: any UserRepository
    let restaurants: any RestaurantRepository
    let favorites: any FavoriteRepository
    let menu: any MenuRepository
    let orders: any OrderRepository
    let idempotency: any IdempotencyRepository
    let events: any EventRepository
}

/// Opens the configured store and its repositories: SQLite (migrated, its read models loaded),
/// PostgreSQL (connection pool started, schema migrated under an advisory lock) or memory.
/// The SQLite store's group commits are recorded through `metrics`.
func openStore(_ configuration: ServiceConfiguration, clock: any WallClock, metrics: ServiceMetrics, logger: Logger) async throws -> (ServiceStore, Repositories) {
    let events: (any EventEncoding)? = configuration.recordsEvents ? WireEventEncoding() : nil
    switch configuration.store {
    case .sqlite:
        let opened = ContinuousClock.now
        try DataDirectory.restrictStoreFiles(configuration.storePath)
        let sqlite: SQLiteStore
        ServiceStore.sqliteReadThreads.setOverdue(after: configuration.queueTimeTarget)
        do {
            sqlite = try SQLiteStore(
                path: configuration.storePath, clock: clock, events: events, queueTimeTarget: configuration.queueTimeTarget,
                readExecutor: ServiceStore.sqliteReadThreads, readBacklog: { ServiceStore.sqliteReadThreads.oldestWait },
                metrics: metrics.factory, logger: logger
            )
        } catch {
            throw StoreOpenFailure(description: "cannot open the SQLite store \(configuration.storePath): \(error)", reachable: true)
        }
        do {
            let restaurants = try await SQLiteRestaurantRepository(store: sqlite)
            let repositories = Repositories(
                users: try await SQLiteUserRepository(store: sqlite), restaurants: restaurants,
                favorites: try await SQLiteFavoriteRepository(store: sqlite), menu: SQLiteMenuRepository(store: sqlite),
                orders: SQLiteOrderRepository(store: sqlite), idempotency: SQLiteIdempotencyRepository(store: sqlite),
                events: SQLiteEventRepository(store: sqlite)
            )
            let held = restaurants.count
            logger.info("opened store", metadata: [
                "kind": "sqlite", "path": "\(configuration.storePath)", "restaurants": "\(held)", "elapsed": "\(ContinuousClock.now - opened)",
            ])
            return (.sqlite(sqlite), repositories)
        } catch {
            try? await sqlite.close()
            throw error
        }
    case .postgres:
        guard let url = configuration.databaseURL else {
            throw StoreOpenFailure(description: "the postgres store needs a database URL (--database-url or SVC_DATABASE_URL)", reachable: true)
        }
        var storeConfiguration = PostgresStore.Configuration(url: url)
        storeConfiguration.maximumConnections = configuration.databaseConnections
        storeConfiguration.queueTimeTarget = configuration.queueTimeTarget
        configuration.adjustPostgresStore(&storeConfiguration)
        var storeLogger = logger
        storeLogger[metadataKey: "store"] = "postgres"
        // postgres-nio logs every failed reconnect attempt at info; the store says it once.
        let postgres = PostgresStore(
            configuration: storeConfiguration, clock: clock, events: events, logger: storeLogger, backgroundLogger: storeLogger.floored(at: .warning)
        )
        do {
            try await postgres.checkAccess()
            postgres.start()
            let migrations = try await postgres.migrate()
            logger.info("opened store", metadata: [
                "kind": "postgres", "database": "\(url)", "migrationsApplied": "\(migrations.isEmpty ? "none" : migrations.joined(separator: ", "))",
            ])
            for warning in try await postgres.durabilityWarnings() {
                logger.warning("an ok may not survive a crash of the database", metadata: ["database": "\(url)", "reason": "\(warning)"])
            }
        } catch let refused as PostgresAccessRefused {
            await postgres.close()
            throw StoreOpenFailure(description: "cannot open the PostgreSQL database \(url): \(refused)", reachable: true, misconfigured: true)
        } catch {
            await postgres.close()
            throw StoreOpenFailure(description: "cannot open the PostgreSQL database \(url): \(error)", reachable: false)
        }
        let repositories = Repositories(
            users: PostgresUserRepository(store: postgres), restaurants: PostgresRestaurantRepository(store: postgres),
            favorites: PostgresFavoriteRepository(store: postgres), menu: PostgresMenuRepository(store: postgres),
            orders: PostgresOrderRepository(store: postgres), idempotency: PostgresIdempotencyRepository(store: postgres),
            events: PostgresEventRepository(store: postgres)
        )
        return (.postgres(postgres), repositories)
    case .memory:
        let memory = InMemoryStore(clock: clock, events: events)
        return (.memory(memory.events), Repositories(
            users: memory.users, restaurants: memory.restaurants, favorites: memory.favorites, menu: memory.menu, orders: memory.orders,
            idempotency: memory.idempotency, events: memory.events
        ))
    }
}

/// Seeds the sample data set when the store is empty, or finishes a sample an interrupted start
/// had begun (``SampleData``: all of it or, after a kill, its first steps, which the next start
/// with `--seed-sample` completes). On PostgreSQL this holds the seeding advisory lock, so of
/// several instances started together exactly one seeds. Seeding appends no events
/// (``EventRecording``): the log starts with the first change a client made; nor is it held to
/// the queue-time target (``QueueTimeExemption``): no client waits for it. `stoppingAfter` ends
/// the run after that many writes, as a kill would (tests use it). Returns what it created.
@discardableResult
func seedSample(
    into repositories: Repositories, of store: ServiceStore, taxRate: TaxRate, logger: Logger, stoppingAfter writeLimit: Int = .max
) async throws -> SampleData.Summary? {
    let seed: @Sendable () async throws -> SampleData.Summary? = {
        // No client waits for these writes: a slow first commit must not refuse them.
        try await QueueTimeExemption.exempt {
            try await EventRecording.suspended {
                try await SampleData.seedIfEmpty(
                    users: repositories.users, restaurants: repositories.restaurants, favorites: repositories.favorites,
                    menu: repositories.menu, orders: repositories.orders, taxRate: taxRate, stoppingAfter: writeLimit
                )
            }
        }
    }
    let seeded: SampleData.Summary?
    switch store {
    case .postgres(let postgres): seeded = try await postgres.withSeedingLock(seed)
    // Synced once at the end, not per commit: nothing is served before it is done.
    case .sqlite(let sqlite): seeded = try await sqlite.bulkLoad(seed)
    case .memory: seeded = try await seed()
    }
    if let seeded {
        logger.info("seeded sample data", metadata: ["summary": "\(seeded)"])
    } else {
        logger.info("the store holds data already; not seeded")
    }
    return seeded
}

extension ServiceStore {
    /// The services the store runs in the service group, before every other service (so they
    /// shut down last): PostgreSQL's connection pool.
    var services: [any Service] {
        if case .postgres(let postgres) = self { return [postgres] }
        return []
    }
}

/// A store that cannot be opened as configured; the message says why.
public struct StoreOpenFailure: Error, CustomStringConvertible {
    /// What is wrong, naming the store.
    public let description: String
    /// Whether the store could be reached (a file that cannot be opened, a bad configuration)
    /// or not (a database server that did not answer in time: may work later).
    public let reachable: Bool
    /// Whether the database refused this configuration (its role, password, database name or
    /// privileges): only a change of configuration helps, not a restart.
    public var misconfigured = false
}

import Persistence
import RestaurantTesting
import Transport

/// What a world of these tests was opened from, kept as its ``World/backing`` so the store stays
/// open (and its directory on disk) while the world is in use.
struct OpenedStore: Sendable {
    /// The SQLite store (sqlite backend only).
    var sqlite: SQLiteStore?
    /// The directory of the SQLite store's file, when the world made it.
    var directory: TemporaryDirectory?
    /// The PostgreSQL store (postgres backend only).
    var postgres: PostgresStore?
}

/// The test world over each backend's repositories, wired as the service wires them.
extension World {
    /// A world over a new store of `backend`, its clock at ``World/start``. With `directory`
    /// (sqlite), the store file in it is opened again (as another process or a restarted service
    /// would); with `postgres`, a second store on that store's database (a second instance).
    /// The postgres backend needs the suite's `.postgres` trait.
    static func open(
        _ backend: Backend, directory existing: TemporaryDirectory? = nil, postgres sharedDatabase: PostgresStore? = nil, idPrefix: String = "t"
    ) async throws -> World {
        switch backend {
        case .memory:
            return World(idPrefix: idPrefix)
        case .sqlite:
            let directory = try existing ?? TemporaryDirectory()
            return try await open(sqliteFile: directory.path + "/store.sqlite", directory: directory, idPrefix: idPrefix)
        case .postgres:
            let clock = ManualWallClock(World.start)
            let postgres: PostgresStore
            if let sharedDatabase {
                postgres = try await PostgresSuite.openStore(url: sharedDatabase.url.testURL, clock: clock)
            } else {
                postgres = try await PostgresSuite.newStore(clock: clock)
            }
            return World(
                users: PostgresUserRepository(store: postgres), restaurants: PostgresRestaurantRepository(store: postgres),
                favorites: PostgresFavoriteRepository(store: postgres), menu: PostgresMenuRepository(store: postgres),
                orders: PostgresOrderRepository(store: postgres),
                idempotency: PostgresIdempotencyRepository(store: postgres), events: PostgresEventRepository(store: postgres),
                clock: clock, idPrefix: idPrefix, backing: OpenedStore(postgres: postgres)
            )
        }
    }

    /// A world over the SQLite store file at `path` (a new one, or one another store has open),
    /// its clock at ``World/start``; `directory`, when given, is kept with the world.
    static func open(sqliteFile path: String, directory: TemporaryDirectory? = nil, idPrefix: String) async throws -> World {
        let clock = ManualWallClock(World.start)
        let store = try SQLiteStore(path: path, clock: clock, events: WireEventEncoding())
        return World(
            users: try await SQLiteUserRepository(store: store), restaurants: try await SQLiteRestaurantRepository(store: store),
            favorites: try await SQLiteFavoriteRepository(store: store), menu: SQLiteMenuRepository(store: store),
            orders: SQLiteOrderRepository(store: store),
            idempotency: SQLiteIdempotencyRepository(store: store), events: SQLiteEventRepository(store: store),
            clock: clock, idPrefix: idPrefix, backing: OpenedStore(sqlite: store, directory: directory)
        )
    }

    private var opened: OpenedStore? { backing as? OpenedStore }

    /// The SQLite store (sqlite backend only).
    var store: SQLiteStore? { opened?.sqlite }
    /// The directory of the SQLite store's file (sqlite backend only).
    var directory: TemporaryDirectory? { opened?.directory }
    /// The PostgreSQL store (postgres backend only).
    var postgres: PostgresStore? { opened?.postgres }
    /// The SQLite restaurant repository, whose held restaurants a test can count (sqlite backend only).
    var sqliteRestaurants: SQLiteRestaurantRepository? { restaurants as? SQLiteRestaurantRepository }
}

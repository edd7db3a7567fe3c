import Domain
import Logging
import Persistence
import RestaurantTesting
import Testing
import WireContract
@testable import Transport

/// Where each use case's requests run follows from what the store's repositories hold: nothing
/// lists use cases for it, and the contract's writes always take the write path.
@Suite struct ServingPathTests {
    @Test func everyReadOfTheInMemoryStoreIsAnsweredInline() {
        let paths = Self.paths(World().useCases)
        for name in UseCaseName.allCases {
            #expect(paths[name] == (name.writes ? .write : .inline), "\(name.rawValue)")
        }
    }

    @Test func onSQLiteOnlyTheReadsOfHeldRowsAreInlineAndEveryOtherReadWaits() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/store.sqlite", events: nil)
        let world = World(
            users: try await SQLiteUserRepository(store: store), restaurants: try await SQLiteRestaurantRepository(store: store),
            favorites: try await SQLiteFavoriteRepository(store: store), menu: SQLiteMenuRepository(store: store),
            orders: SQLiteOrderRepository(store: store), idempotency: SQLiteIdempotencyRepository(store: store),
            events: SQLiteEventRepository(store: store), clock: ManualWallClock(World.start), idPrefix: "p", backing: nil
        )
        let paths = Self.paths(world.useCases)
        let inline: Set<UseCaseName> = [.getRestaurant, .getUserProfile, .listRestaurants]
        for name in UseCaseName.allCases {
            let expected: ServingPath = name.writes ? .write : inline.contains(name) ? .inline : .waitingRead
            #expect(paths[name] == expected, "\(name.rawValue)")
        }
        try await store.close()
    }

    @Test func onPostgreSQLEveryReadWaits() throws {
        // Nothing connects until the store starts: the repositories only say what they hold.
        let store = PostgresStore(
            configuration: .init(url: try PostgresURL(parsing: "postgres://svc@127.0.0.1:1/svc")), events: nil, logger: Logger(label: "ServingPathTests")
        )
        let world = World(
            users: PostgresUserRepository(store: store), restaurants: PostgresRestaurantRepository(store: store),
            favorites: PostgresFavoriteRepository(store: store), menu: PostgresMenuRepository(store: store),
            orders: PostgresOrderRepository(store: store), idempotency: PostgresIdempotencyRepository(store: store),
            events: PostgresEventRepository(store: store), clock: ManualWallClock(World.start), idPrefix: "p", backing: nil
        )
        let paths = Self.paths(world.useCases)
        for name in UseCaseName.allCases {
            #expect(paths[name] == (name.writes ? .write : .waitingRead), "\(name.rawValue)")
        }
    }

    /// The serving path of every use case's route over `catalog`.
    private static func paths(_ catalog: UseCaseCatalog) -> [UseCaseName: ServingPath] {
        Dictionary(uniqueKeysWithValues: UseCaseRoute.all(catalog).map { ($0.name, $0.path) })
    }
}

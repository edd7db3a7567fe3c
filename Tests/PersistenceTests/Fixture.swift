import Domain
import Foundation
import Persistence
import Testing

/// Which repository implementations a test runs against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, sqlite, postgres
    var testDescription: String { rawValue }
}

/// Lists every user, for audits; both user repositories can.
protocol UserListing: UserRepository {
    func allUsers() async throws -> [User]
}
extension InMemoryUserRepository: UserListing {}
extension SQLiteUserRepository: UserListing {}
extension PostgresUserRepository: UserListing {}

/// A directory under the system's temporary directory, removed when the last reference goes.
final class TemporaryDirectory: Sendable {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "persistence-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// One backend's repositories wired to use cases with a fixed clock, as the service would be.
struct Fixture {
    let users: any UserListing
    let restaurants: any RestaurantRepository
    let favorites: any FavoriteRepository
    let menu: any MenuRepository
    let orders: any OrderRepository
    let idempotency: any IdempotencyRepository
    /// The SQLite store and its directory (sqlite backend only).
    let store: SQLiteStore?
    let directory: TemporaryDirectory?
    /// The PostgreSQL store (postgres backend only; its suite needs the `.postgres` trait).
    let postgres: PostgresStore?
    let clock: ManualWallClock
    let ids = SequentialIdentifierGenerator(prefix: "t")
    let tax = FixedTaxRate(TaxRate(partsPerMillion: 80_000)!)

    /// A new store of `backend`; with `directory` (sqlite), the store file in it is opened again
    /// (as another process or a restarted service would).
    init(_ backend: Backend, directory existing: TemporaryDirectory? = nil, postgres sharedDatabase: PostgresStore? = nil) async throws {
        let clock = ManualWallClock(Timestamp(year: 2026, month: 6, day: 15, hour: 12))
        self.clock = clock
        switch backend {
        case .memory:
            let memory = InMemoryStore(clock: clock)
            users = memory.users
            restaurants = memory.restaurants
            favorites = memory.favorites
            menu = memory.menu
            orders = memory.orders
            idempotency = memory.idempotency
            store = nil
            directory = nil
            postgres = nil
        case .postgres:
            // With a store of another fixture: a second instance on the same database.
            let postgres: PostgresStore
            if let sharedDatabase {
                postgres = try await PostgresSuite.openStore(url: sharedDatabase.url.testURL, clock: clock)
            } else {
                postgres = try await PostgresSuite.newStore(clock: clock)
            }
            users = PostgresUserRepository(store: postgres)
            restaurants = PostgresRestaurantRepository(store: postgres)
            favorites = PostgresFavoriteRepository(store: postgres)
            menu = PostgresMenuRepository(store: postgres)
            orders = PostgresOrderRepository(store: postgres)
            idempotency = PostgresIdempotencyRepository(store: postgres)
            self.postgres = postgres
            store = nil
            directory = nil
        case .sqlite:
            let directory = try existing ?? TemporaryDirectory()
            let store = try SQLiteStore(path: directory.path + "/store.sqlite", clock: clock)
            users = try await SQLiteUserRepository(store: store)
            restaurants = try await SQLiteRestaurantRepository(store: store)
            favorites = try await SQLiteFavoriteRepository(store: store)
            menu = SQLiteMenuRepository(store: store)
            orders = SQLiteOrderRepository(store: store)
            idempotency = SQLiteIdempotencyRepository(store: store)
            self.store = store
            self.directory = directory
            postgres = nil
        }
    }

    var registerUser: RegisterUser { RegisterUser(users: users, clock: clock, ids: ids) }
    var updateUserProfile: UpdateUserProfile { UpdateUserProfile(users: users) }
    var deactivateUser: DeactivateUser { DeactivateUser(users: users) }
    var createRestaurant: CreateRestaurant { CreateRestaurant(restaurants: restaurants, clock: clock, ids: ids) }
    var saveFavorite: SaveFavoriteRestaurant { SaveFavoriteRestaurant(users: users, restaurants: restaurants, favorites: favorites, clock: clock) }
    var removeFavorite: RemoveFavoriteRestaurant { RemoveFavoriteRestaurant(users: users, restaurants: restaurants, favorites: favorites) }
    var addReview: AddReview { AddReview(users: users, restaurants: restaurants, clock: clock, ids: ids) }
    var getReviews: GetReviews { GetReviews(restaurants: restaurants) }
    var addMenuItem: AddMenuItem { AddMenuItem(restaurants: restaurants, menu: menu, ids: ids) }
    var restock: RestockMenuItem { RestockMenuItem(menu: menu) }
    var placeOrder: PlaceOrder { PlaceOrder(users: users, menu: menu, orders: orders, clock: clock, ids: ids, taxRate: tax) }

    func user(_ name: String = "Ada") async throws -> User {
        try await registerUser.execute(.init(name: name, email: "\(name.lowercased())-\(ids.makeIdentifier())@example.com"))
    }

    func restaurant(_ name: String = "Trattoria") async throws -> Restaurant {
        try await createRestaurant.execute(.init(name: name, cuisine: "Italian", priceLevel: 2, address: "1 Main St", latitude: 45, longitude: 9))
    }

    func item(in restaurant: Restaurant, priceCents: Int = 1500, stock: Int) async throws -> MenuItem {
        try await addMenuItem.execute(.init(restaurantId: restaurant.id, name: "Dish \(ids.makeIdentifier())", priceCents: priceCents, currency: "USD", stock: stock))
    }
}

/// How a racing call ended.
enum RaceOutcome: Sendable, Equatable {
    case succeeded
    case refused(DomainError)
    case failed(String)

    init(_ body: () async throws -> Void) async {
        do {
            try await body()
            self = .succeeded
        } catch let error as DomainError {
            self = .refused(error)
        } catch {
            self = .failed(String(describing: error))
        }
    }
}

/// Runs `count` calls of `body` concurrently and returns how each ended, in index order.
func race(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async -> [RaceOutcome] {
    await withTaskGroup(of: (Int, RaceOutcome).self) { group in
        for index in 0..<count {
            group.addTask { (index, await RaceOutcome { try await body(index) }) }
        }
        var outcomes = Array(repeating: RaceOutcome.failed("not run"), count: count)
        for await (index, outcome) in group { outcomes[index] = outcome }
        return outcomes
    }
}

extension PostgresURL {
    /// The URL again as text, password included (tests have none).
    var testURL: String { "postgres://\(user)@\(host):\(port)/\(database)?sslmode=\(tlsMode.rawValue)" }
}

import Domain
import Persistence
import RestaurantTesting
import Synchronization
import Testing
import WireContract

/// Each read use case's `reads` names every repository read it makes, and no other: the
/// transport answers a read inline on a socket thread when the store holds all of its declared
/// reads, so an undeclared read that waits for a database would block that thread. The use cases
/// run over repositories that record each read they are asked for.
@Suite struct ReadUseCaseDeclarationTests {
    @Test func everyReadUseCaseMakesExactlyTheRepositoryReadsItDeclares() async throws {
        let recorder = ReadRecorder()
        let world = try await Self.seededWorld(recorder)
        let s = world.seed
        let useCases = world.world.useCases
        let firstPage = try await useCases.listRestaurants.execute(.init(limit: 1))
        let cursor = try #require(firstPage.nextCursor, "the seed lists more than one restaurant")
        let runs: [(name: UseCaseName, declared: Set<RepositoryRead>, run: @Sendable () async throws -> Void)] = [
            (.getUserProfile, GetUserProfile.reads, { _ = try await useCases.getUserProfile.execute(userId: s.user) }),
            (.getRestaurant, GetRestaurant.reads, {
                _ = try await useCases.getRestaurant.execute(restaurantId: s.restaurant)
                _ = try await useCases.getRestaurant.execute(restaurantId: s.restaurant, userId: s.user)
            }),
            (.listRestaurants, ListRestaurants.reads, {
                _ = try await useCases.listRestaurants.execute(.init(cuisine: "Italian", limit: 1, cursor: cursor))
            }),
            (.searchRestaurants, SearchRestaurants.reads, { _ = try await useCases.searchRestaurants.execute(query: "Roma") }),
            (.getFavoriteRestaurants, GetFavoriteRestaurants.reads, { _ = try await useCases.getFavoriteRestaurants.execute(userId: s.user) }),
            (.getReviews, GetReviews.reads, { _ = try await useCases.getReviews.execute(restaurantId: s.restaurant) }),
            (.calculateRestaurantScore, CalculateRestaurantScore.reads, { _ = try await useCases.calculateRestaurantScore.execute(restaurantId: s.restaurant) }),
            (.getMenu, GetMenu.reads, { _ = try await useCases.getMenu.execute(restaurantId: s.restaurant) }),
            (.getOrder, GetOrder.reads, { _ = try await useCases.getOrder.execute(orderId: s.order) }),
            (.listOrders, ListOrders.reads, { _ = try await useCases.listOrders.execute(userId: s.user) }),
            (.loadFeed, LoadFeed.reads, { _ = try await useCases.loadFeed.execute() }),
        ]
        #expect(Set(runs.map(\.name)) == Set(UseCaseName.allCases.filter { !$0.writes }), "every read of the contract is run here")
        for (name, declared, run) in runs {
            recorder.reset()
            try await run()
            #expect(recorder.made == declared, "\(name.rawValue) made \(recorder.made.sorted { "\($0)" < "\($1)" }), declares \(declared.sorted { "\($0)" < "\($1)" })")
        }
    }

    /// What the test reads back: a user with a favourite, a review and an order, and the
    /// reviewed restaurant, which has a menu.
    private struct Seed: Sendable {
        let user: UserID
        let restaurant: RestaurantID
        let order: OrderID
    }

    /// A world whose repositories report every read to `recorder`, holding two restaurants (so
    /// a listing has a second page), a user who saved, reviewed and ordered from the first.
    private static func seededWorld(_ recorder: ReadRecorder) async throws -> (world: World, seed: Seed) {
        let inner = World()
        let world = World(
            users: RecordingUsers(inner.users, recorder), restaurants: RecordingRestaurants(inner.restaurants, recorder),
            favorites: RecordingFavorites(inner.favorites, recorder), menu: RecordingMenu(inner.menu, recorder),
            orders: RecordingOrders(inner.orders, recorder), idempotency: inner.idempotency, events: inner.events, clock: inner.clock
        )
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        _ = try await world.makeRestaurant(name: "Roma Due")
        let item = try await world.makeItem(restaurantId: restaurant.id)
        _ = try await world.useCases.saveFavoriteRestaurant.execute(userId: user.id, restaurantId: restaurant.id)
        try await world.review(restaurant.id, by: user.id, ratings: [5])
        let order = try await world.useCases.placeOrder.execute(.init(userId: user.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "1 Main Street"))
        return (world, Seed(user: user.id, restaurant: restaurant.id, order: order.id))
    }
}

/// The repository reads made since the last ``reset()``.
private final class ReadRecorder: Sendable {
    private let reads = Mutex<Set<RepositoryRead>>([])

    func record(_ read: RepositoryRead) { reads.withLock { _ = $0.insert(read) } }
    func reset() { reads.withLock { $0.removeAll() } }
    var made: Set<RepositoryRead> { reads.withLock { $0 } }
}

private struct RecordingUsers: UserListing {
    let inner: any UserListing
    let recorder: ReadRecorder
    init(_ inner: any UserListing, _ recorder: ReadRecorder) { (self.inner, self.recorder) = (inner, recorder) }

    var heldReads: Set<RepositoryRead> { inner.heldReads }
    func insert(_ user: User, claim: IdempotencyClaim?) async throws -> UserWriteOutcome { try await inner.insert(user, claim: claim) }
    func user(id: UserID) async throws -> User? {
        recorder.record(.userById)
        return try await inner.user(id: id)
    }
    func update(
        id: UserID, claim: IdempotencyClaim?, event: @escaping @Sendable (User) -> DomainEvent, _ change: @escaping @Sendable (User) throws -> User
    ) async throws -> UserWriteOutcome {
        try await inner.update(id: id, claim: claim, event: event, change)
    }
    func allUsers() async throws -> [User] { try await inner.allUsers() }
}

private struct RecordingRestaurants: RestaurantRepository {
    let inner: any RestaurantRepository
    let recorder: ReadRecorder
    init(_ inner: any RestaurantRepository, _ recorder: ReadRecorder) { (self.inner, self.recorder) = (inner, recorder) }

    var heldReads: Set<RepositoryRead> { inner.heldReads }
    func insert(_ restaurant: Restaurant, claim: IdempotencyClaim?) async throws { try await inner.insert(restaurant, claim: claim) }
    func restaurant(id: RestaurantID) async throws -> Restaurant? {
        recorder.record(.restaurantById)
        return try await inner.restaurant(id: id)
    }
    func restaurants(ids: [RestaurantID]) async throws -> [Restaurant] {
        recorder.record(.restaurantById)
        return try await inner.restaurants(ids: ids)
    }
    func list(_ query: RestaurantQuery, after: RestaurantRankKey?, limit: Int) async throws -> [Restaurant] {
        recorder.record(query.text == nil ? .rankedRestaurants : .restaurantsMatchingText)
        return try await inner.list(query, after: after, limit: limit)
    }
    func newest(after: RecencyKey<Restaurant>?, limit: Int) async throws -> [Restaurant] {
        recorder.record(.newestRestaurants)
        return try await inner.newest(after: after, limit: limit)
    }
    func addReview(_ review: Review, claim: IdempotencyClaim?) async throws -> Restaurant? { try await inner.addReview(review, claim: claim) }
    func reviews(of restaurantId: RestaurantID, after: RecencyKey<Review>?, limit: Int) async throws -> [Review] {
        recorder.record(.reviews)
        return try await inner.reviews(of: restaurantId, after: after, limit: limit)
    }
    func reviewCount(of restaurantId: RestaurantID, createdAfter since: Timestamp, atMost: Int) async throws -> Int {
        recorder.record(.reviews)
        return try await inner.reviewCount(of: restaurantId, createdAfter: since, atMost: atMost)
    }
}

private struct RecordingFavorites: FavoriteRepository {
    let inner: any FavoriteRepository
    let recorder: ReadRecorder
    init(_ inner: any FavoriteRepository, _ recorder: ReadRecorder) { (self.inner, self.recorder) = (inner, recorder) }

    var heldReads: Set<RepositoryRead> { inner.heldReads }
    func add(_ favorite: Favorite, limit: Int, claim: IdempotencyClaim?) async throws -> FavoriteAddOutcome {
        try await inner.add(favorite, limit: limit, claim: claim)
    }
    func remove(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim?) async throws -> Int {
        try await inner.remove(userId: userId, restaurantId: restaurantId, claim: claim)
    }
    func favorites(of userId: UserID) async throws -> [Favorite] {
        recorder.record(.favoritesOfUser)
        return try await inner.favorites(of: userId)
    }
    func contains(userId: UserID, restaurantId: RestaurantID) async throws -> Bool {
        recorder.record(.favoriteCheck)
        return try await inner.contains(userId: userId, restaurantId: restaurantId)
    }
}

private struct RecordingMenu: MenuRepository {
    let inner: any MenuRepository
    let recorder: ReadRecorder
    init(_ inner: any MenuRepository, _ recorder: ReadRecorder) { (self.inner, self.recorder) = (inner, recorder) }

    var heldReads: Set<RepositoryRead> { inner.heldReads }
    func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws { try await inner.insert(item, claim: claim) }
    func item(id: MenuItemID) async throws -> MenuItem? {
        recorder.record(.menuItems)
        return try await inner.item(id: id)
    }
    func items(ids: [MenuItemID]) async throws -> [MenuItem] {
        recorder.record(.menuItems)
        return try await inner.items(ids: ids)
    }
    func menu(of restaurantId: RestaurantID) async throws -> [MenuItem] {
        recorder.record(.menuItems)
        return try await inner.menu(of: restaurantId)
    }
    func restock(itemId: MenuItemID, quantity: Int, maximumStock: Int, claim: IdempotencyClaim?) async throws -> RestockOutcome {
        try await inner.restock(itemId: itemId, quantity: quantity, maximumStock: maximumStock, claim: claim)
    }
}

private struct RecordingOrders: OrderRepository {
    let inner: any OrderRepository
    let recorder: ReadRecorder
    init(_ inner: any OrderRepository, _ recorder: ReadRecorder) { (self.inner, self.recorder) = (inner, recorder) }

    var heldReads: Set<RepositoryRead> { inner.heldReads }
    func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome { try await inner.place(order, claim: claim) }
    func cancel(id: OrderID, claim: IdempotencyClaim?, _ decide: @escaping @Sendable (Order) throws -> Order) async throws -> OrderCancellationOutcome {
        try await inner.cancel(id: id, claim: claim, decide)
    }
    func order(id: OrderID) async throws -> Order? {
        recorder.record(.orders)
        return try await inner.order(id: id)
    }
    func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async throws -> [Order] {
        recorder.record(.orders)
        return try await inner.orders(of: userId, after: after, limit: limit)
    }
}

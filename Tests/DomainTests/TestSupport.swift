import Domain
import Persistence
import Synchronization
import Testing

/// A fresh, isolated set of in-memory repositories and deterministic ports, plus the use cases
/// wired over them. Every test builds its own `World`, so tests never share state.
struct World {
    /// The fixed "now" every world starts at: 2026-06-15T12:00:00Z.
    static let start = Timestamp(year: 2026, month: 6, day: 15, hour: 12)
    /// The default tax rate, 8 %.
    static let defaultTaxRate = TaxRate(partsPerMillion: 80_000)!

    let clock: ManualWallClock
    let ids: SequentialIdentifierGenerator
    let taxRate: FixedTaxRate
    let users: InMemoryUserRepository
    let restaurants: InMemoryRestaurantRepository
    let favorites: InMemoryFavoriteRepository
    /// Menu items and their stock.
    let menu: InMemoryMenuRepository
    /// Orders, taking stock from `menu`'s items.
    let orders: InMemoryOrderRepository
    /// Idempotency keys' bindings, shared by the repositories above.
    let idempotency: InMemoryIdempotencyRepository
    private let emailCounter = Counter()

    init(now: Timestamp = World.start, taxRate: TaxRate = World.defaultTaxRate) {
        clock = ManualWallClock(now)
        let store = InMemoryStore(clock: clock)
        users = store.users
        restaurants = store.restaurants
        favorites = store.favorites
        menu = store.menu
        orders = store.orders
        idempotency = store.idempotency
        ids = SequentialIdentifierGenerator(prefix: "id")
        self.taxRate = FixedTaxRate(taxRate)
    }

    var now: Timestamp { clock.now() }

    // MARK: Use cases (wired by the production composition, UseCaseCatalog)

    /// Every use case over this world's repositories and ports.
    var useCases: UseCaseCatalog {
        UseCaseCatalog(users: users, restaurants: restaurants, favorites: favorites, menu: menu, orders: orders, idempotency: idempotency, clock: clock, ids: ids, taxRate: taxRate)
    }

    var registerUser: RegisterUser { useCases.registerUser }
    var getUserProfile: GetUserProfile { useCases.getUserProfile }
    var updateUserProfile: UpdateUserProfile { useCases.updateUserProfile }
    var deactivateUser: DeactivateUser { useCases.deactivateUser }
    var startSubscription: StartSubscription { useCases.startSubscription }
    var createRestaurant: CreateRestaurant { useCases.createRestaurant }
    var getRestaurant: GetRestaurant { useCases.getRestaurant }
    var listRestaurants: ListRestaurants { useCases.listRestaurants }
    var searchRestaurants: SearchRestaurants { useCases.searchRestaurants }
    var saveFavorite: SaveFavoriteRestaurant { useCases.saveFavoriteRestaurant }
    var removeFavorite: RemoveFavoriteRestaurant { useCases.removeFavoriteRestaurant }
    var getFavorites: GetFavoriteRestaurants { useCases.getFavoriteRestaurants }
    var addReview: AddReview { useCases.addReview }
    var getReviews: GetReviews { useCases.getReviews }
    var calculateScore: CalculateRestaurantScore { useCases.calculateRestaurantScore }
    var addMenuItem: AddMenuItem { useCases.addMenuItem }
    var restockMenuItem: RestockMenuItem { useCases.restockMenuItem }
    var getMenu: GetMenu { useCases.getMenu }
    var placeOrder: PlaceOrder { useCases.placeOrder }
    var getOrder: GetOrder { useCases.getOrder }
    var listOrders: ListOrders { useCases.listOrders }
    var loadFeed: LoadFeed { useCases.loadFeed }

    // MARK: Clock

    func advance(days: Int = 0, hours: Int = 0, minutes: Int = 0, milliseconds: Int64 = 0) {
        clock.advance(milliseconds: Int64(days) * 86_400_000 + Int64(hours) * 3_600_000 + Int64(minutes) * 60_000 + milliseconds)
    }

    // MARK: Factories (through the use cases, so they obey every rule)

    /// Registers an active user; the e-mail address is unique within this world unless given.
    func makeUser(name: String = "Ada Lovelace", email: String? = nil) async throws -> User {
        let address = email ?? "user\(emailCounter.next())@example.com"
        return try await registerUser.execute(.init(name: name, email: address))
    }

    /// Registers a user and deactivates them.
    func makeInactiveUser(name: String = "Gone User") async throws -> User {
        let user = try await makeUser(name: name)
        return try await deactivateUser.execute(userId: user.id)
    }

    /// Creates a valid restaurant through ``CreateRestaurant``.
    func makeRestaurant(
        name: String = "Trattoria Roma", cuisine: String = "Italian", priceLevel: Int = 2,
        address: String = "1 Main Street", latitude: Double = 45.0, longitude: Double = 9.0,
        imageUrl: String? = nil
    ) async throws -> Restaurant {
        try await createRestaurant.execute(.init(
            name: name, cuisine: cuisine, priceLevel: priceLevel, address: address,
            latitude: latitude, longitude: longitude, imageUrl: imageUrl
        ))
    }

    /// Stores a restaurant straight into the repository, bypassing validation, so tests can
    /// control ids, rating totals and creation times (or store an invalid one).
    @discardableResult
    func insertRestaurant(
        id: String, name: String = "Stored", cuisine: String = "Italian", priceLevel: Int = 2,
        address: String = "2 Side Street", latitude: Double = 10, longitude: Double = 10,
        imageUrl: String? = nil, ratingTotal: Int = 0, reviewCount: Int = 0, createdAt: Timestamp? = nil
    ) async throws -> Restaurant {
        let restaurant = Restaurant(
            id: RestaurantID(id), name: name, cuisine: cuisine, priceLevel: priceLevel, address: address,
            latitude: latitude, longitude: longitude, imageUrl: imageUrl,
            ratingTotal: ratingTotal, reviewCount: reviewCount, createdAt: createdAt ?? now
        )
        try await restaurants.insert(restaurant)
        return restaurant
    }

    /// Adds a menu item through ``AddMenuItem``.
    func makeItem(
        restaurantId: RestaurantID, name: String = "Pizza", priceCents: Int = 1000,
        currency: String = "USD", stock: Int = 10
    ) async throws -> MenuItem {
        try await addMenuItem.execute(.init(restaurantId: restaurantId, name: name, priceCents: priceCents, currency: currency, stock: stock))
    }

    /// Adds one review per rating through ``AddReview`` by `userId` at the current time.
    func review(_ restaurantId: RestaurantID, by userId: UserID, ratings: [Int], text: String = "ok") async throws {
        for rating in ratings {
            _ = try await addReview.execute(.init(userId: userId, restaurantId: restaurantId, rating: rating, text: text))
        }
    }

    /// The stored stock of an item (fails the test when the item is missing).
    func stock(of itemId: MenuItemID, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        try #require(await menu.item(id: itemId), sourceLocation: sourceLocation).stock
    }
}

/// A thread-safe counter for unique test data.
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}

// MARK: - Error expectations

/// Runs `body`, expecting it to throw a ``DomainError``; records an issue otherwise.
@discardableResult
func expectDomainError<R>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async -> DomainError? {
    do {
        let result = try await body()
        Issue.record("expected a DomainError, but the call succeeded with \(result)", sourceLocation: sourceLocation)
        return nil
    } catch let error as DomainError {
        return error
    } catch {
        Issue.record("expected a DomainError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Expects `.invalidInput` naming exactly `field`.
func expectInvalidInput<R>(
    _ field: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    guard case .invalidInput(let actual, _) = error else {
        Issue.record("expected invalidInput(field: \(field)), got \(error)", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == field, "the error must name the offending field", sourceLocation: sourceLocation)
}

/// Expects `.notFound` of `entity` (and, when given, exactly `id`).
func expectNotFound<R>(
    _ entity: String,
    id: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    guard case .notFound(let actualEntity, let actualId) = error else {
        Issue.record("expected notFound(\(entity)), got \(error)", sourceLocation: sourceLocation)
        return
    }
    #expect(actualEntity == entity, sourceLocation: sourceLocation)
    if let id {
        #expect(actualId == id, sourceLocation: sourceLocation)
    }
}

/// Expects `.unauthorized`.
func expectUnauthorized<R>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    guard case .unauthorized = error else {
        Issue.record("expected unauthorized, got \(error)", sourceLocation: sourceLocation)
        return
    }
}

/// Expects `.conflict`.
func expectConflict<R>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    guard case .conflict = error else {
        Issue.record("expected conflict, got \(error)", sourceLocation: sourceLocation)
        return
    }
}

/// Expects exactly `.businessRule(violation)`.
func expectBusinessRule<R>(
    _ violation: BusinessRuleViolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    #expect(error == .businessRule(violation), sourceLocation: sourceLocation)
}

// MARK: - Paging helpers

/// Follows cursors from the first page to the last, returning every page (at most `maxPages`,
/// so a paging bug cannot loop forever).
func collectPages<Element: Sendable>(
    maxPages: Int = 1000,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ fetch: (PageCursor?) async throws -> Page<Element>
) async throws -> [Page<Element>] {
    var pages: [Page<Element>] = []
    var cursor: PageCursor?
    repeat {
        let page = try await fetch(cursor)
        pages.append(page)
        cursor = page.nextCursor
        if pages.count >= maxPages {
            Issue.record("paging did not end after \(maxPages) pages", sourceLocation: sourceLocation)
            break
        }
    } while cursor != nil
    return pages
}

/// A string of exactly `count` characters.
func string(length count: Int, of character: Character = "a") -> String {
    String(repeating: character, count: count)
}

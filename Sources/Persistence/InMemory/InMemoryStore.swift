import Domain

/// One in-memory store: every in-memory repository, binding idempotency keys in one shared
/// ledger (so a key used with one use case is refused with another). Lost when the process ends.
public struct InMemoryStore: Sendable {
    /// Users.
    public let users: InMemoryUserRepository
    /// Restaurants and reviews.
    public let restaurants: InMemoryRestaurantRepository
    /// Favorites.
    public let favorites: InMemoryFavoriteRepository
    /// Menu items, stock and orders.
    public let menu: InMemoryMenuRepository
    /// Idempotency keys' bindings.
    public let idempotency: InMemoryIdempotencyRepository

    /// An empty store; `clock` stamps idempotency keys' bindings.
    public init(clock: any WallClock = SystemWallClock()) {
        idempotency = InMemoryIdempotencyRepository(clock: clock)
        users = InMemoryUserRepository(idempotency: idempotency)
        restaurants = InMemoryRestaurantRepository(idempotency: idempotency)
        favorites = InMemoryFavoriteRepository(idempotency: idempotency)
        menu = InMemoryMenuRepository(idempotency: idempotency)
    }
}

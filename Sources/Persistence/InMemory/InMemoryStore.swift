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
    /// Menu items and their stock.
    public let menu: InMemoryMenuRepository
    /// Orders, taking stock from ``menu``'s items in the same actor step (see
    /// ``InMemoryOrderRepository``).
    public let orders: InMemoryOrderRepository
    /// Idempotency keys' bindings.
    public let idempotency: InMemoryIdempotencyRepository

    /// An empty store; `clock` stamps idempotency keys' bindings.
    public init(clock: any WallClock = SystemWallClock()) {
        idempotency = InMemoryIdempotencyRepository(clock: clock)
        users = InMemoryUserRepository(idempotency: idempotency)
        restaurants = InMemoryRestaurantRepository(idempotency: idempotency)
        favorites = InMemoryFavoriteRepository(idempotency: idempotency)
        let inventory = InMemoryInventory(idempotency: idempotency)
        menu = InMemoryMenuRepository(inventory: inventory)
        orders = InMemoryOrderRepository(inventory: inventory)
    }
}

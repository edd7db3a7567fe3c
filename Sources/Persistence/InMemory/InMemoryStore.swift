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
    /// The event log every write that changed something appends to.
    public let events: InMemoryEventRepository

    /// An empty store; `clock` stamps idempotency keys' bindings and events; `events` encodes
    /// the events (`nil`: none are kept, only for measuring what the event log costs).
    public init(clock: any WallClock = SystemWallClock(), events encoder: (any EventEncoding)?) {
        events = InMemoryEventRepository(encoder: encoder, clock: clock)
        idempotency = InMemoryIdempotencyRepository(clock: clock, events: events)
        users = InMemoryUserRepository(idempotency: idempotency)
        restaurants = InMemoryRestaurantRepository(idempotency: idempotency)
        favorites = InMemoryFavoriteRepository(idempotency: idempotency)
        let inventory = InMemoryInventory(idempotency: idempotency)
        menu = InMemoryMenuRepository(inventory: inventory)
        orders = InMemoryOrderRepository(inventory: inventory)
    }
}

import Domain
import Persistence
import Transport

/// The one test world: a set of repositories, deterministic ports (a clock the test moves by
/// hand, sequential ids, a fixed tax rate) and every use case wired over them by the production
/// composition, ``UseCaseCatalog``.
///
/// `World()` is a fresh in-memory store. A test of a store builds that store's repositories and
/// passes them to ``init(users:restaurants:favorites:menu:orders:idempotency:events:clock:taxRate:idPrefix:backing:)``,
/// so the same use cases and helpers run over every backend. Every test builds its own world, so
/// tests never share state.
public struct World: Sendable {
    /// The fixed "now" every world starts at: 2026-06-15T12:00:00Z.
    public static let start = Timestamp(year: 2026, month: 6, day: 15, hour: 12)
    /// The default tax rate, 8 %.
    public static let defaultTaxRate = TaxRate(partsPerMillion: 80_000)!

    /// The clock every use case reads; tests move it (``advance(days:hours:minutes:milliseconds:)``).
    public let clock: ManualWallClock
    /// The ids of new entities: `PREFIX-000001`, `PREFIX-000002`, …
    public let ids: SequentialIdentifierGenerator
    /// The tax rate of new orders.
    public let taxRate: FixedTaxRate
    /// Users.
    public let users: any UserListing
    /// Restaurants and their reviews.
    public let restaurants: any RestaurantRepository
    /// Favorites.
    public let favorites: any FavoriteRepository
    /// Menu items and their stock.
    public let menu: any MenuRepository
    /// Orders.
    public let orders: any OrderRepository
    /// Idempotency keys' bindings, shared by the repositories above.
    public let idempotency: any IdempotencyRepository
    /// The event log the repositories above append to.
    public let events: any EventRepository
    /// Every use case over this world's repositories and ports.
    public let useCases: UseCaseCatalog
    /// What the repositories were opened from (a store, its files), held for as long as the
    /// world is: a test of a store keeps its handles here and reads them back. `nil` for the
    /// in-memory store, whose repositories hold everything.
    public let backing: (any Sendable)?
    /// Numbers the e-mail addresses ``makeUser(name:email:)`` makes up.
    let emailCounter = Counter()

    /// A world over a new, empty in-memory store whose clock shows `now`; ids start with `idPrefix`.
    public init(now: Timestamp = World.start, taxRate: TaxRate = World.defaultTaxRate, idPrefix: String = "id") {
        let clock = ManualWallClock(now)
        // The store stamps idempotency keys' bindings with the world's clock, as the service
        // does with its own.
        let store = InMemoryStore(clock: clock, events: WireEventEncoding())
        // The in-memory menu repository keeps the orders too: placing an order takes the stock
        // in the same atomic step.
        self.init(
            users: store.users, restaurants: store.restaurants, favorites: store.favorites,
            menu: store.menu, orders: store.orders, idempotency: store.idempotency, events: store.events,
            clock: clock, taxRate: taxRate, idPrefix: idPrefix
        )
    }

    /// A world over the given repositories (of any store); `clock` is the one the store was
    /// opened with, so the use cases and the store agree on the time; `backing` is kept with
    /// the world (``backing``).
    public init(
        users: any UserListing, restaurants: any RestaurantRepository, favorites: any FavoriteRepository,
        menu: any MenuRepository, orders: any OrderRepository, idempotency: any IdempotencyRepository, events: any EventRepository,
        clock: ManualWallClock, taxRate: TaxRate = World.defaultTaxRate, idPrefix: String = "id", backing: (any Sendable)? = nil
    ) {
        self.clock = clock
        self.ids = SequentialIdentifierGenerator(prefix: idPrefix)
        self.taxRate = FixedTaxRate(taxRate)
        self.users = users
        self.restaurants = restaurants
        self.favorites = favorites
        self.menu = menu
        self.orders = orders
        self.idempotency = idempotency
        self.events = events
        self.backing = backing
        useCases = UseCaseCatalog(
            users: users, restaurants: restaurants, favorites: favorites, menu: menu, orders: orders,
            idempotency: idempotency, events: events, clock: clock, ids: ids, taxRate: self.taxRate
        )
    }

    /// The time the world's clock shows.
    public var now: Timestamp { clock.now() }

    /// Moves the world's clock forward.
    public func advance(days: Int = 0, hours: Int = 0, minutes: Int = 0, milliseconds: Int64 = 0) {
        clock.advance(milliseconds: Int64(days) * 86_400_000 + Int64(hours) * 3_600_000 + Int64(minutes) * 60_000 + milliseconds)
    }
}

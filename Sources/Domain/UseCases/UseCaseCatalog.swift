/// Every use case of the platform, built over one set of repositories and ports. The
/// composition root builds it once; the transport hosts each member behind its own endpoint.
public struct UseCaseCatalog: Sendable {
    /// RegisterUser.
    public let registerUser: RegisterUser
    /// GetUserProfile.
    public let getUserProfile: GetUserProfile
    /// UpdateUserProfile.
    public let updateUserProfile: UpdateUserProfile
    /// DeactivateUser.
    public let deactivateUser: DeactivateUser
    /// StartSubscription.
    public let startSubscription: StartSubscription
    /// CreateRestaurant.
    public let createRestaurant: CreateRestaurant
    /// GetRestaurant.
    public let getRestaurant: GetRestaurant
    /// ListRestaurants.
    public let listRestaurants: ListRestaurants
    /// SearchRestaurants.
    public let searchRestaurants: SearchRestaurants
    /// SaveFavoriteRestaurant.
    public let saveFavoriteRestaurant: SaveFavoriteRestaurant
    /// RemoveFavoriteRestaurant.
    public let removeFavoriteRestaurant: RemoveFavoriteRestaurant
    /// GetFavoriteRestaurants.
    public let getFavoriteRestaurants: GetFavoriteRestaurants
    /// AddReview.
    public let addReview: AddReview
    /// GetReviews.
    public let getReviews: GetReviews
    /// CalculateRestaurantScore.
    public let calculateRestaurantScore: CalculateRestaurantScore
    /// AddMenuItem.
    public let addMenuItem: AddMenuItem
    /// RestockMenuItem.
    public let restockMenuItem: RestockMenuItem
    /// GetMenu.
    public let getMenu: GetMenu
    /// PlaceOrder.
    public let placeOrder: PlaceOrder
    /// GetOrder.
    public let getOrder: GetOrder
    /// ListOrders.
    public let listOrders: ListOrders
    /// LoadFeed.
    public let loadFeed: LoadFeed
    /// CancelOrder.
    public let cancelOrder: CancelOrder
    /// Answers a write whose idempotency key is bound already, before the write's use case runs.
    public let replayBoundWrite: ReplayBoundWrite
    /// Reads the event log from a sequence number (the event log endpoint's).
    public let readEventLog: ReadEventLog
    /// The reads its repositories answer from memory (the union of their `heldReads`).
    public let heldReads: Set<RepositoryRead>

    /// Builds every use case over the given repositories and ports.
    public init(
        users: any UserRepository, restaurants: any RestaurantRepository, favorites: any FavoriteRepository,
        menu: any MenuRepository, orders: any OrderRepository, idempotency: any IdempotencyRepository, events: any EventRepository,
        clock: any WallClock, ids: any IdentifierGenerator, taxRate: any TaxRateProvider
    ) {
        registerUser = RegisterUser(users: users, clock: clock, ids: ids)
        getUserProfile = GetUserProfile(users: users, clock: clock)
        updateUserProfile = UpdateUserProfile(users: users)
        deactivateUser = DeactivateUser(users: users)
        startSubscription = StartSubscription(users: users, clock: clock)
        createRestaurant = CreateRestaurant(restaurants: restaurants, clock: clock, ids: ids)
        getRestaurant = GetRestaurant(restaurants: restaurants, users: users, favorites: favorites)
        listRestaurants = ListRestaurants(restaurants: restaurants)
        searchRestaurants = SearchRestaurants(restaurants: restaurants)
        saveFavoriteRestaurant = SaveFavoriteRestaurant(users: users, restaurants: restaurants, favorites: favorites, clock: clock)
        removeFavoriteRestaurant = RemoveFavoriteRestaurant(users: users, restaurants: restaurants, favorites: favorites)
        getFavoriteRestaurants = GetFavoriteRestaurants(users: users, restaurants: restaurants, favorites: favorites)
        addReview = AddReview(users: users, restaurants: restaurants, clock: clock, ids: ids)
        getReviews = GetReviews(restaurants: restaurants)
        calculateRestaurantScore = CalculateRestaurantScore(restaurants: restaurants, clock: clock)
        addMenuItem = AddMenuItem(restaurants: restaurants, menu: menu, ids: ids)
        restockMenuItem = RestockMenuItem(menu: menu)
        getMenu = GetMenu(restaurants: restaurants, menu: menu)
        placeOrder = PlaceOrder(users: users, menu: menu, orders: orders, clock: clock, ids: ids, taxRate: taxRate)
        getOrder = GetOrder(orders: orders)
        listOrders = ListOrders(users: users, orders: orders)
        loadFeed = LoadFeed(restaurants: restaurants)
        cancelOrder = CancelOrder(users: users, orders: orders, clock: clock)
        replayBoundWrite = ReplayBoundWrite(bindings: idempotency)
        readEventLog = ReadEventLog(events: events)
        heldReads = users.heldReads.union(restaurants.heldReads).union(favorites.heldReads).union(menu.heldReads).union(orders.heldReads)
    }

    /// Whether a use case making `reads` is answered without waiting for a database: every one
    /// of them is held in memory.
    public func answersFromMemory(_ reads: Set<RepositoryRead>) -> Bool {
        reads.isSubset(of: heldReads)
    }
}

/// Saves a restaurant as one of an active user's favorites, at most 100 per user.
public struct SaveFavoriteRestaurant: Sendable {
    private let users: any UserRepository
    private let restaurants: any RestaurantRepository
    private let favorites: any FavoriteRepository
    private let clock: any WallClock

    /// Creates the use case.
    public init(users: any UserRepository, restaurants: any RestaurantRepository, favorites: any FavoriteRepository, clock: any WallClock) {
        self.users = users
        self.restaurants = restaurants
        self.favorites = favorites
        self.clock = clock
    }

    /// The user's favorite count afterwards. Unknown user or restaurant [not_found], inactive
    /// user [unauthorized], cap reached [business_rule]; saving a favorite again is a no-op.
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim? = nil) async throws -> Int {
        _ = try await users.activeUser(userId)
        _ = try await restaurants.existingRestaurant(restaurantId)
        let favorite = Favorite(userId: userId, restaurantId: restaurantId, savedAt: clock.now())
        // The cap is checked by the store in the same atomic step as the insert.
        switch try await favorites.add(favorite, limit: Favorite.maximumPerUser, claim: claim) {
        case .added(let count), .alreadySaved(let count):
            return count
        case .limitReached:
            throw DomainError.businessRule(.favoritesLimitReached(limit: Favorite.maximumPerUser))
        }
    }
}

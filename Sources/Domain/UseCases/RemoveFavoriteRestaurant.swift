/// Removes a restaurant from an active user's favorites (a no-op when it is not one).
public struct RemoveFavoriteRestaurant: Sendable {
    private let users: any UserRepository
    private let restaurants: any RestaurantRepository
    private let favorites: any FavoriteRepository

    /// Creates the use case.
    public init(users: any UserRepository, restaurants: any RestaurantRepository, favorites: any FavoriteRepository) {
        self.users = users
        self.restaurants = restaurants
        self.favorites = favorites
    }

    /// The user's favorite count afterwards. Unknown user or restaurant [not_found], inactive
    /// user [unauthorized].
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim? = nil) async throws -> Int {
        _ = try await users.activeUser(userId)
        _ = try await restaurants.existingRestaurant(restaurantId)
        return try await favorites.remove(userId: userId, restaurantId: restaurantId, claim: claim)
    }
}

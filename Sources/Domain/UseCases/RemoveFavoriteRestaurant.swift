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
    public func execute(userId: UserID, restaurantId: RestaurantID) async throws -> Int {
        _ = try await users.activeUser(userId)
        _ = try await restaurants.existingRestaurant(restaurantId)
        return try await favorites.remove(userId: userId, restaurantId: restaurantId)
    }
}

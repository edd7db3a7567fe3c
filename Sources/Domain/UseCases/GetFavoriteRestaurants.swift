/// An active user's favorite restaurants, newest saved first.
public struct GetFavoriteRestaurants: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.userById, .favoritesOfUser, .restaurantById]

    private let users: any UserRepository
    private let restaurants: any RestaurantRepository
    private let favorites: any FavoriteRepository

    /// Creates the use case.
    public init(users: any UserRepository, restaurants: any RestaurantRepository, favorites: any FavoriteRepository) {
        self.users = users
        self.restaurants = restaurants
        self.favorites = favorites
    }

    /// Unknown user [not_found], inactive user [unauthorized]. Invalid restaurants are left out.
    public func execute(userId: UserID) async throws -> [Restaurant] {
        _ = try await users.activeUser(userId)
        let saved = try await favorites.favorites(of: userId)
        return try await restaurants.restaurants(ids: saved.map(\.restaurantId)).filter(\.isValid)
    }
}

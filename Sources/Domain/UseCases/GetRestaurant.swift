/// Shows one restaurant; with a user, also whether that user saved it.
public struct GetRestaurant: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.userById, .restaurantById, .favoriteCheck]

    /// A restaurant and, when a user was given, whether it is one of their favorites.
    public struct Output: Sendable, Hashable {
        /// The restaurant.
        public let restaurant: Restaurant
        /// `nil` when no user was given.
        public let isFavorite: Bool?
    }

    private let restaurants: any RestaurantRepository
    private let users: any UserRepository
    private let favorites: any FavoriteRepository

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository, users: any UserRepository, favorites: any FavoriteRepository) {
        self.restaurants = restaurants
        self.users = users
        self.favorites = favorites
    }

    /// Unknown or invalid restaurant [not_found]; a given user must exist [not_found] and be
    /// active [unauthorized].
    public func execute(restaurantId: RestaurantID, userId: UserID? = nil) async throws -> Output {
        if let userId {
            _ = try await users.activeUser(userId)
        }
        let restaurant = try await restaurants.existingRestaurant(restaurantId)
        guard restaurant.isValid else {
            throw DomainError.notFound(entity: "restaurant", id: restaurantId.rawValue)
        }
        guard let userId else { return Output(restaurant: restaurant, isFavorite: nil) }
        let isFavorite = try await favorites.contains(userId: userId, restaurantId: restaurantId)
        return Output(restaurant: restaurant, isFavorite: isFavorite)
    }
}

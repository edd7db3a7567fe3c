/// A restaurant's menu, ordered by name.
public struct GetMenu: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.restaurantById, .menuItems]

    private let restaurants: any RestaurantRepository
    private let menu: any MenuRepository

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository, menu: any MenuRepository) {
        self.restaurants = restaurants
        self.menu = menu
    }

    /// Unknown restaurant [not_found].
    public func execute(restaurantId: RestaurantID) async throws -> [MenuItem] {
        _ = try await restaurants.existingRestaurant(restaurantId)
        return try await menu.menu(of: restaurantId)
    }
}

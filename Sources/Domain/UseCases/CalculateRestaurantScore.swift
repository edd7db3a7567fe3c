/// A restaurant's ranking score from its rating, review count and recent reviews.
public struct CalculateRestaurantScore: Sendable {
    private let restaurants: any RestaurantRepository
    private let clock: any WallClock

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository, clock: any WallClock) {
        self.restaurants = restaurants
        self.clock = clock
    }

    /// Unknown restaurant [not_found].
    public func execute(restaurantId: RestaurantID) async throws -> RestaurantScore {
        let restaurant = try await restaurants.existingRestaurant(restaurantId)
        let recent = try await restaurants.reviewCount(of: restaurantId, createdAfter: Review.recencyThreshold(at: clock.now()))
        return RestaurantScore(rating: restaurant.rating, reviewCount: restaurant.reviewCount, recentReviewCount: recent)
    }
}

/// A restaurant's ranking score from its rating, review count and recent reviews.
public struct CalculateRestaurantScore: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.restaurantById, .reviews]

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
        // The score saturates at this many recent reviews: counting further would cost more for
        // a popular restaurant and change nothing.
        let recent = try await restaurants.reviewCount(
            of: restaurantId, createdAfter: Review.recencyThreshold(at: clock.now()), atMost: RestaurantScore.recentReviewSaturation
        )
        return RestaurantScore(rating: restaurant.rating, reviewCount: restaurant.reviewCount, recentReviewCount: recent)
    }
}

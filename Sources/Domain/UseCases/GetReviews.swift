/// A restaurant's reviews, newest first, paged.
public struct GetReviews: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.restaurantById, .reviews]

    private let restaurants: any RestaurantRepository

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository) {
        self.restaurants = restaurants
    }

    /// Unknown restaurant [not_found]; limit outside 1…500 or a foreign cursor [invalid_input].
    public func execute(restaurantId: RestaurantID, limit: Int? = nil, cursor: PageCursor? = nil) async throws -> Page<Review> {
        let limit = try Validate.limit(limit)
        let after = try cursor.map { cursor throws(DomainError) in try RecencyKey<Review>(cursor: cursor, kind: .reviews) }
        _ = try await restaurants.existingRestaurant(restaurantId)
        let rows = try await restaurants.reviews(of: restaurantId, after: after, limit: limit + 1)
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { RecencyKey(createdAt: $0.createdAt, id: $0.id).cursor(.reviews) } : nil
        return Page(items: page, nextCursor: next)
    }
}

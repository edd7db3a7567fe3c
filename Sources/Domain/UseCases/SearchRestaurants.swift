/// Finds valid restaurants whose name or cuisine contains the query, case-insensitively, best
/// rated first.
public struct SearchRestaurants: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.restaurantsMatchingText]

    /// The longest query, in characters.
    public static let maximumQueryLength = 100

    private let restaurants: any RestaurantRepository

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository) {
        self.restaurants = restaurants
    }

    /// A blank or over-long query or a limit outside 1…500 is [invalid_input].
    public func execute(query: String, limit: Int? = nil) async throws -> [Restaurant] {
        let text = try Validate.text(query, field: "query", maximumLength: SearchRestaurants.maximumQueryLength)
        let limit = try Validate.limit(limit)
        let query = RestaurantQuery(text: text)
        return try await restaurants.list(query, after: nil, limit: limit).filter(query.matches)
    }
}

/// The discovery feed: valid restaurants, newest first, paged.
public struct LoadFeed: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.newestRestaurants]

    private let restaurants: any RestaurantRepository

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository) {
        self.restaurants = restaurants
    }

    /// Limit outside 1…500 or a foreign cursor [invalid_input].
    public func execute(limit: Int? = nil, cursor: PageCursor? = nil) async throws -> Page<FeedItem> {
        let limit = try Validate.limit(limit)
        let after = try cursor.map { cursor throws(DomainError) in try RecencyKey<Restaurant>(cursor: cursor, kind: .feed) }
        let rows = try await restaurants.newest(after: after, limit: limit + 1)
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { RecencyKey(createdAt: $0.createdAt, id: $0.id).cursor(.feed) } : nil
        return Page(items: page.filter(\.isValid).map(FeedItem.init), nextCursor: next)
    }
}

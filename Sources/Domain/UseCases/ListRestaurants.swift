/// Lists valid restaurants by rating (then name, then id), with optional filters and paging.
public struct ListRestaurants: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.restaurantById, .rankedRestaurants]

    /// What the caller supplies.
    public struct Input: Sendable, Hashable {
        /// Only this cuisine (case-insensitive).
        public var cuisine: String?
        /// Only ratings ≥ this, 0…5.
        public var minRating: Double?
        /// Only price levels ≤ this, 1…4.
        public var maxPriceLevel: Int?
        /// Page size 1…500, default 50.
        public var limit: Int?
        /// Continues a previous page.
        public var cursor: PageCursor?

        /// Creates the input.
        public init(cuisine: String? = nil, minRating: Double? = nil, maxPriceLevel: Int? = nil, limit: Int? = nil, cursor: PageCursor? = nil) {
            self.cuisine = cuisine
            self.minRating = minRating
            self.maxPriceLevel = maxPriceLevel
            self.limit = limit
            self.cursor = cursor
        }
    }

    private let restaurants: any RestaurantRepository

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository) {
        self.restaurants = restaurants
    }

    /// One page; out-of-range filters, limit or a foreign cursor are [invalid_input].
    public func execute(_ input: Input) async throws -> Page<Restaurant> {
        let limit = try Validate.limit(input.limit)
        let cuisine = try input.cuisine.map { cuisine throws(DomainError) in try Validate.name(cuisine, field: "cuisine") }
        let minRating = try input.minRating.map { rating throws(DomainError) in try Validate.number(rating, field: "minRating", in: Restaurant.ratings) }
        let maxPriceLevel = try input.maxPriceLevel.map { level throws(DomainError) in try Validate.integer(level, field: "maxPriceLevel", in: Restaurant.priceLevels) }
        let position = try input.cursor.map { cursor throws(DomainError) in try RestaurantRankKey.position(in: cursor) }
        var after: RestaurantRankKey?
        if let position {
            guard let last = try await restaurants.restaurant(id: position.id) else {
                throw DomainError.invalidInput(field: "cursor", reason: "is not a cursor returned by this listing")
            }
            // The rating comes from the cursor: the page continues where the previous one ended
            // even if the restaurant's rating changed since.
            after = RestaurantRankKey(rating: position.rating, name: last.name, id: last.id)
        }
        let query = RestaurantQuery(cuisine: cuisine, minRating: minRating, maxPriceLevel: maxPriceLevel)
        // One row more than asked tells whether another page exists.
        let rows = try await restaurants.list(query, after: after, limit: limit + 1)
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { RestaurantRankKey($0).cursor } : nil
        return Page(items: page.filter(query.matches), nextCursor: next)
    }
}

import Domain

/// Restaurants and their reviews held in memory. A review and its restaurant's rating totals
/// change in the same actor step, so the rating is always the mean of the stored reviews.
public actor InMemoryRestaurantRepository: RestaurantRepository {
    /// What it answers from memory: every read of it (it holds everything).
    public nonisolated var heldReads: Set<RepositoryRead> { [.restaurantById, .rankedRestaurants, .restaurantsMatchingText, .newestRestaurants, .reviews] }

    private var restaurants: [RestaurantID: Restaurant] = [:]
    // Newest first, so the common "first page of reviews" read is a prefix.
    private var reviewsByRestaurant: [RestaurantID: [Review]] = [:]

    private let idempotency: InMemoryIdempotencyRepository

    /// An empty repository, binding idempotency keys in `idempotency` (share one ledger among the
    /// repositories of one store).
    public init(idempotency: InMemoryIdempotencyRepository = InMemoryIdempotencyRepository()) {
        self.idempotency = idempotency
    }

    /// Stores a new restaurant.
    public func insert(_ restaurant: Restaurant, claim: IdempotencyClaim?) throws {
        try idempotency.perform(claim) {
            restaurants[restaurant.id] = restaurant
            return ((), .changed(.restaurant(restaurant), .restaurantCreated(restaurant)))
        }
    }

    /// The restaurant with this id.
    public func restaurant(id: RestaurantID) -> Restaurant? {
        restaurants[id]
    }

    /// The restaurants with these ids, in the order given.
    public func restaurants(ids: [RestaurantID]) -> [Restaurant] {
        ids.compactMap { restaurants[$0] }
    }

    /// Restaurants matching `query` in rank order after `after`.
    public func list(_ query: RestaurantQuery, after: RestaurantRankKey?, limit: Int) -> [Restaurant] {
        var matching = restaurants.values.filter(query.matches)
        if let after {
            matching.removeAll { !after.precedes(RestaurantRankKey($0)) }
        }
        matching.sort { RestaurantRankKey($0).precedes(RestaurantRankKey($1)) }
        return Array(matching.prefix(limit))
    }

    /// Valid restaurants, newest first, after `after`.
    public func newest(after: RecencyKey<Restaurant>?, limit: Int) -> [Restaurant] {
        var valid = restaurants.values.filter(\.isValid)
        if let after {
            valid.removeAll { !after.precedes($0.recencyKey) }
        }
        valid.sort { $0.recencyKey.precedes($1.recencyKey) }
        return Array(valid.prefix(limit))
    }

    /// Stores the review and updates the rating totals in one step.
    public func addReview(_ review: Review, claim: IdempotencyClaim?) throws -> Restaurant? {
        try idempotency.perform(claim) {
            let updated = store(review)
            return (updated, updated.map { .changed(.review(review, restaurantRating: $0.rating), .reviewAdded(review, restaurantRating: $0.rating)) })
        }
    }

    private func store(_ review: Review) -> Restaurant? {
        guard let restaurant = restaurants[review.restaurantId] else { return nil }
        let updated = restaurant.addingReview(rating: review.rating)
        restaurants[review.restaurantId] = updated
        reviewsByRestaurant[review.restaurantId, default: []].insertNewestFirst(review)
        return updated
    }

    /// A restaurant's reviews, newest first, after `after`.
    public func reviews(of restaurantId: RestaurantID, after: RecencyKey<Review>?, limit: Int) -> [Review] {
        reviewsByRestaurant[restaurantId, default: []].page(after: after, limit: limit)
    }

    /// How many reviews of the restaurant are newer than `since`, up to `atMost`.
    public func reviewCount(of restaurantId: RestaurantID, createdAfter since: Timestamp, atMost: Int) -> Int {
        // Newest first: count the prefix newer than `since`.
        reviewsByRestaurant[restaurantId, default: []].prefix(max(atMost, 0)).prefix { $0.createdAt > since }.count
    }
}

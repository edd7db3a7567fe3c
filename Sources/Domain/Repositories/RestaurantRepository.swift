/// Stores restaurants and their reviews. Reviews live with their restaurant because the
/// restaurant's rating is derived from them: adding a review and updating the rating totals is
/// one atomic step.
public protocol RestaurantRepository: Sendable {
    /// Which of its reads (restaurantById, rankedRestaurants, restaurantsMatchingText,
    /// newestRestaurants and reviews) it answers from what it holds in memory, without waiting for
    /// a database: the transport answers a use case whose reads are all held on the thread that
    /// received it.
    var heldReads: Set<RepositoryRead> { get }
    /// Stores a new restaurant, binding `claim` to it in the same step.
    func insert(_ restaurant: Restaurant, claim: IdempotencyClaim?) async throws
    /// The restaurant with this id.
    func restaurant(id: RestaurantID) async throws -> Restaurant?
    /// The restaurants with these ids, in the order given; unknown ids are skipped.
    func restaurants(ids: [RestaurantID]) async throws -> [Restaurant]
    /// Up to `limit` restaurants matching `query`, in rank order, strictly after `after`.
    func list(_ query: RestaurantQuery, after: RestaurantRankKey?, limit: Int) async throws -> [Restaurant]
    /// Up to `limit` valid restaurants, newest first, strictly after `after`.
    func newest(after: RecencyKey<Restaurant>?, limit: Int) async throws -> [Restaurant]
    /// Stores `review` and adds it to its restaurant's rating totals atomically. Returns the
    /// updated restaurant, or `nil` (and stores nothing) when the restaurant does not exist.
    /// Binds `claim` to the review and the new rating in the same step.
    func addReview(_ review: Review, claim: IdempotencyClaim?) async throws -> Restaurant?
    /// Up to `limit` reviews of a restaurant, newest first, strictly after `after`.
    func reviews(of restaurantId: RestaurantID, after: RecencyKey<Review>?, limit: Int) async throws -> [Review]
    /// How many reviews of a restaurant were created strictly after `since`, counting no further
    /// than `atMost`: the work is bounded by `atMost`, however many reviews the restaurant has.
    func reviewCount(of restaurantId: RestaurantID, createdAfter since: Timestamp, atMost: Int) async throws -> Int
}

extension RestaurantRepository {
    /// ``insert(_:claim:)`` without an idempotency key.
    public func insert(_ restaurant: Restaurant) async throws {
        try await insert(restaurant, claim: nil)
    }

    /// ``addReview(_:claim:)`` without an idempotency key.
    public func addReview(_ review: Review) async throws -> Restaurant? {
        try await addReview(review, claim: nil)
    }
}

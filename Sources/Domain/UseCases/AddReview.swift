/// Adds an active user's review to a restaurant and updates its rating (the mean of all reviews).
public struct AddReview: Sendable {
    /// What the caller supplies.
    public struct Input: Sendable, Hashable {
        /// The author.
        public var userId: UserID
        /// The reviewed restaurant.
        public var restaurantId: RestaurantID
        /// Stars, 1…5.
        public var rating: Int
        /// At most 2000 characters.
        public var text: String

        /// Creates the input.
        public init(userId: UserID, restaurantId: RestaurantID, rating: Int, text: String) {
            self.userId = userId
            self.restaurantId = restaurantId
            self.rating = rating
            self.text = text
        }
    }

    /// The stored review and the restaurant's rating including it.
    public struct Output: Sendable, Hashable {
        /// The review.
        public let review: Review
        /// The restaurant's new rating.
        public let restaurantRating: Double
    }

    private let users: any UserRepository
    private let restaurants: any RestaurantRepository
    private let clock: any WallClock
    private let ids: any IdentifierGenerator

    /// Creates the use case.
    public init(users: any UserRepository, restaurants: any RestaurantRepository, clock: any WallClock, ids: any IdentifierGenerator) {
        self.users = users
        self.restaurants = restaurants
        self.clock = clock
        self.ids = ids
    }

    /// Rating outside 1…5 or text over 2000 characters [invalid_input]; unknown user or
    /// restaurant [not_found]; inactive user [unauthorized].
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(_ input: Input, claim: IdempotencyClaim? = nil) async throws -> Output {
        let rating = try Validate.integer(input.rating, field: "rating", in: Review.ratings)
        guard input.text.count <= Review.maximumTextLength else {
            throw DomainError.invalidInput(field: "text", reason: "must be at most \(Review.maximumTextLength) characters")
        }
        _ = try await users.activeUser(input.userId)
        let review = Review(id: ids.make(), restaurantId: input.restaurantId, userId: input.userId, rating: rating, text: input.text, createdAt: clock.now())
        // The review and the rating totals are written in one atomic step.
        guard let restaurant = try await restaurants.addReview(review, claim: claim) else {
            throw DomainError.notFound(entity: "restaurant", id: input.restaurantId.rawValue)
        }
        return Output(review: review, restaurantRating: restaurant.rating)
    }
}

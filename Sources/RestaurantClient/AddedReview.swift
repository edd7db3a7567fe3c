/// The result of AddReview: the stored review and the restaurant's rating including it.
public struct AddedReview: Sendable, Hashable {
    /// The new review.
    public var review: Review
    /// The restaurant's rating after this review.
    public var restaurantRating: Double

    /// Creates a value (e.g. for test doubles); the client decodes replies itself.
    public init(review: Review, restaurantRating: Double) {
        self.review = review
        self.restaurantRating = restaurantRating
    }

    init(_ f: Fields) throws(RestaurantClientError) {
        review = try Review(f.nested("review"))
        restaurantRating = try f.double("restaurantRating")
    }
}

/// The result of AddReview: the stored review and the restaurant's rating including it.
import WireContract
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
        review = try Review(f.nested(WireMember.review.name))
        restaurantRating = try f.double(WireMember.restaurantRating.name)
    }
}

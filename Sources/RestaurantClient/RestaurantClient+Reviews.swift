import WireJSON
import WireContract

extension RestaurantClient {
    /// AddReview: adds a review (rating 1…5) and returns it with the restaurant's new rating.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func addReview(userId: String, restaurantId: String, rating: Int, text: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> AddedReview {
        let params: JSONObject = [
            WireMember.userId.name: .string(userId), WireMember.restaurantId.name: .string(restaurantId), WireMember.rating.name: .int(rating), WireMember.text.name: .string(text),
        ]
        return try AddedReview(await fields(.addReview, params, idempotencyKey: idempotencyKey))
    }

    /// GetReviews: a restaurant's reviews, newest first, paged.
    public func getReviews(restaurantId: String, limit: Int? = nil, cursor: String? = nil) async throws(RestaurantClientError) -> Page<Review> {
        var params: JSONObject = [WireMember.restaurantId.name: .string(restaurantId)]
        if let limit { params[WireMember.limit.name] = .int(limit) }
        if let cursor { params[WireMember.cursor.name] = .string(cursor) }
        let result = try await fields(.getReviews, params)
        return Page(items: try result.list(WireMember.reviews.name, Review.init), nextCursor: try result.optionalString(WireMember.nextCursor.name))
    }
}

import WireJSON

extension RestaurantClient {
    /// AddReview: adds a review (rating 1…5) and returns it with the restaurant's new rating.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func addReview(userId: String, restaurantId: String, rating: Int, text: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> AddedReview {
        let params: JSONObject = [
            "userId": .string(userId), "restaurantId": .string(restaurantId), "rating": .int(rating), "text": .string(text),
        ]
        return try AddedReview(await fields(.addReview, params, idempotencyKey: idempotencyKey))
    }

    /// GetReviews: a restaurant's reviews, newest first, paged.
    public func getReviews(restaurantId: String, limit: Int? = nil, cursor: String? = nil) async throws(RestaurantClientError) -> Page<Review> {
        var params: JSONObject = ["restaurantId": .string(restaurantId)]
        if let limit { params["limit"] = .int(limit) }
        if let cursor { params["cursor"] = .string(cursor) }
        let result = try await fields(.getReviews, params)
        return Page(items: try result.list("reviews", Review.init), nextCursor: try result.optionalString("nextCursor"))
    }
}

import WireJSON

extension RestaurantClient {
    /// CreateRestaurant: lists a new restaurant (rating 0, no reviews).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func createRestaurant(
        name: String, cuisine: String, priceLevel: Int, address: String, latitude: Double, longitude: Double,
        imageUrl: String? = nil, phoneNumber: String? = nil, website: String? = nil, openingHours: [String] = [],
        idempotencyKey: String? = nil
    ) async throws(RestaurantClientError) -> Restaurant {
        var params: JSONObject = [
            "name": .string(name), "cuisine": .string(cuisine), "priceLevel": .int(priceLevel),
            "address": .string(address), "latitude": .double(latitude), "longitude": .double(longitude),
            "openingHours": .array(openingHours.map { .string($0) }),
        ]
        if let imageUrl { params["imageUrl"] = .string(imageUrl) }
        if let phoneNumber { params["phoneNumber"] = .string(phoneNumber) }
        if let website { params["website"] = .string(website) }
        return try Restaurant(await fields(.createRestaurant, params, idempotencyKey: idempotencyKey).nested("restaurant"))
    }

    /// GetRestaurant: one restaurant; with `userId`, ``Restaurant/isFavorite`` tells whether
    /// that user saved it.
    public func getRestaurant(id: String, userId: String? = nil) async throws(RestaurantClientError) -> Restaurant {
        var params: JSONObject = ["restaurantId": .string(id)]
        if let userId { params["userId"] = .string(userId) }
        return try Restaurant(await fields(.getRestaurant, params).nested("restaurant"))
    }

    /// ListRestaurants: valid restaurants, best rated first, filtered and paged. Pass the
    /// previous page's ``Page/nextCursor`` with the same filters for the next page.
    public func listRestaurants(
        cuisine: String? = nil, minRating: Double? = nil, maxPriceLevel: Int? = nil, limit: Int? = nil,
        cursor: String? = nil
    ) async throws(RestaurantClientError) -> Page<Restaurant> {
        var params: JSONObject = [:]
        if let cuisine { params["cuisine"] = .string(cuisine) }
        if let minRating { params["minRating"] = .double(minRating) }
        if let maxPriceLevel { params["maxPriceLevel"] = .int(maxPriceLevel) }
        if let limit { params["limit"] = .int(limit) }
        if let cursor { params["cursor"] = .string(cursor) }
        let result = try await fields(.listRestaurants, params)
        return Page(items: try result.list("restaurants", Restaurant.init), nextCursor: try result.optionalString("nextCursor"))
    }

    /// SearchRestaurants: the first `limit` restaurants whose name or cuisine contains `query`
    /// (case-insensitively), best rated first.
    public func searchRestaurants(query: String, limit: Int? = nil) async throws(RestaurantClientError) -> [Restaurant] {
        var params: JSONObject = ["query": .string(query)]
        if let limit { params["limit"] = .int(limit) }
        return try await fields(.searchRestaurants, params).list("restaurants", Restaurant.init)
    }

    /// CalculateRestaurantScore: the restaurant's score (rating, review count and recency).
    public func calculateRestaurantScore(restaurantId: String) async throws(RestaurantClientError) -> Double {
        try await fields(.calculateRestaurantScore, ["restaurantId": .string(restaurantId)]).double("score")
    }

    /// LoadFeed: the discovery feed, newest restaurants first, paged.
    public func loadFeed(limit: Int? = nil, cursor: String? = nil) async throws(RestaurantClientError) -> Page<FeedItem> {
        var params: JSONObject = [:]
        if let limit { params["limit"] = .int(limit) }
        if let cursor { params["cursor"] = .string(cursor) }
        let result = try await fields(.loadFeed, params)
        return Page(items: try result.list("items", FeedItem.init), nextCursor: try result.optionalString("nextCursor"))
    }
}

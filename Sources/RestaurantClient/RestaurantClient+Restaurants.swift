import WireJSON
import WireContract

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
            WireMember.name.name: .string(name), WireMember.cuisine.name: .string(cuisine), WireMember.priceLevel.name: .int(priceLevel),
            WireMember.address.name: .string(address), WireMember.latitude.name: .double(latitude), WireMember.longitude.name: .double(longitude),
            WireMember.openingHours.name: .array(openingHours.map { .string($0) }),
        ]
        if let imageUrl { params[WireMember.imageUrl.name] = .string(imageUrl) }
        if let phoneNumber { params[WireMember.phoneNumber.name] = .string(phoneNumber) }
        if let website { params[WireMember.website.name] = .string(website) }
        return try Restaurant(await fields(.createRestaurant, params, idempotencyKey: idempotencyKey).nested(WireMember.restaurant.name))
    }

    /// GetRestaurant: one restaurant; with `userId`, ``Restaurant/isFavorite`` tells whether
    /// that user saved it.
    public func getRestaurant(id: String, userId: String? = nil) async throws(RestaurantClientError) -> Restaurant {
        var params: JSONObject = [WireMember.restaurantId.name: .string(id)]
        if let userId { params[WireMember.userId.name] = .string(userId) }
        return try Restaurant(await fields(.getRestaurant, params).nested(WireMember.restaurant.name))
    }

    /// ListRestaurants: valid restaurants, best rated first, filtered and paged. Pass the
    /// previous page's ``Page/nextCursor`` with the same filters for the next page.
    public func listRestaurants(
        cuisine: String? = nil, minRating: Double? = nil, maxPriceLevel: Int? = nil, limit: Int? = nil,
        cursor: String? = nil
    ) async throws(RestaurantClientError) -> Page<Restaurant> {
        var params: JSONObject = [:]
        if let cuisine { params[WireMember.cuisine.name] = .string(cuisine) }
        if let minRating { params[WireMember.minRating.name] = .double(minRating) }
        if let maxPriceLevel { params[WireMember.maxPriceLevel.name] = .int(maxPriceLevel) }
        if let limit { params[WireMember.limit.name] = .int(limit) }
        if let cursor { params[WireMember.cursor.name] = .string(cursor) }
        let result = try await fields(.listRestaurants, params)
        return Page(items: try result.list(WireMember.restaurants.name, Restaurant.init), nextCursor: try result.optionalString(WireMember.nextCursor.name))
    }

    /// SearchRestaurants: the first `limit` restaurants whose name or cuisine contains `query`
    /// (case-insensitively), best rated first.
    public func searchRestaurants(query: String, limit: Int? = nil) async throws(RestaurantClientError) -> [Restaurant] {
        var params: JSONObject = [WireMember.query.name: .string(query)]
        if let limit { params[WireMember.limit.name] = .int(limit) }
        return try await fields(.searchRestaurants, params).list(WireMember.restaurants.name, Restaurant.init)
    }

    /// CalculateRestaurantScore: the restaurant's score (rating, review count and recency).
    public func calculateRestaurantScore(restaurantId: String) async throws(RestaurantClientError) -> Double {
        try await fields(.calculateRestaurantScore, [WireMember.restaurantId.name: .string(restaurantId)]).double(WireMember.score.name)
    }

    /// LoadFeed: the discovery feed, newest restaurants first, paged.
    public func loadFeed(limit: Int? = nil, cursor: String? = nil) async throws(RestaurantClientError) -> Page<FeedItem> {
        var params: JSONObject = [:]
        if let limit { params[WireMember.limit.name] = .int(limit) }
        if let cursor { params[WireMember.cursor.name] = .string(cursor) }
        let result = try await fields(.loadFeed, params)
        return Page(items: try result.list(WireMember.items.name, FeedItem.init), nextCursor: try result.optionalString(WireMember.nextCursor.name))
    }
}

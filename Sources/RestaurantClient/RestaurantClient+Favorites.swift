import WireJSON

extension RestaurantClient {
    /// SaveFavoriteRestaurant: saves a favorite (a no-op if already saved); returns the user's
    /// number of favorites afterwards.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func saveFavoriteRestaurant(userId: String, restaurantId: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> Int {
        try await fields(.saveFavoriteRestaurant, ["userId": .string(userId), "restaurantId": .string(restaurantId)], idempotencyKey: idempotencyKey)
            .int("favoriteCount")
    }

    /// RemoveFavoriteRestaurant: removes a favorite; returns the user's number of favorites afterwards.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func removeFavoriteRestaurant(userId: String, restaurantId: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> Int {
        try await fields(.removeFavoriteRestaurant, ["userId": .string(userId), "restaurantId": .string(restaurantId)], idempotencyKey: idempotencyKey)
            .int("favoriteCount")
    }

    /// GetFavoriteRestaurants: the user's favorites, most recently saved first.
    public func getFavoriteRestaurants(userId: String) async throws(RestaurantClientError) -> [Restaurant] {
        try await fields(.getFavoriteRestaurants, ["userId": .string(userId)]).list("restaurants", Restaurant.init)
    }
}

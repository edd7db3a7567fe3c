import WireJSON
import WireContract

extension RestaurantClient {
    /// SaveFavoriteRestaurant: saves a favorite (a no-op if already saved); returns the user's
    /// number of favorites afterwards.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func saveFavoriteRestaurant(userId: String, restaurantId: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> Int {
        try await fields(.saveFavoriteRestaurant, [WireMember.userId.name: .string(userId), WireMember.restaurantId.name: .string(restaurantId)], idempotencyKey: idempotencyKey)
            .int(WireMember.favoriteCount.name)
    }

    /// RemoveFavoriteRestaurant: removes a favorite; returns the user's number of favorites afterwards.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func removeFavoriteRestaurant(userId: String, restaurantId: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> Int {
        try await fields(.removeFavoriteRestaurant, [WireMember.userId.name: .string(userId), WireMember.restaurantId.name: .string(restaurantId)], idempotencyKey: idempotencyKey)
            .int(WireMember.favoriteCount.name)
    }

    /// GetFavoriteRestaurants: the user's favorites, most recently saved first.
    public func getFavoriteRestaurants(userId: String) async throws(RestaurantClientError) -> [Restaurant] {
        try await fields(.getFavoriteRestaurants, [WireMember.userId.name: .string(userId)]).list(WireMember.restaurants.name, Restaurant.init)
    }
}

import WireJSON

extension RestaurantClient {
    /// RegisterUser: registers a new, active user. Errors: `invalid_input`, `conflict` (e-mail taken).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func registerUser(name: String, email: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> User {
        try User(await fields(.registerUser, ["name": .string(name), "email": .string(email)], idempotencyKey: idempotencyKey).nested("user"))
    }

    /// GetUserProfile: the profile with membership tier. Errors: `not_found`, `unauthorized`.
    public func getUserProfile(userId: String) async throws(RestaurantClientError) -> UserProfile {
        try UserProfile(await fields(.getUserProfile, ["userId": .string(userId)]).nested("profile"))
    }

    /// UpdateUserProfile: changes name and/or e-mail (`nil` leaves a field as it is).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func updateUserProfile(userId: String, name: String? = nil, email: String? = nil, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> User {
        var params: JSONObject = ["userId": .string(userId)]
        if let name { params["name"] = .string(name) }
        if let email { params["email"] = .string(email) }
        return try User(await fields(.updateUserProfile, params, idempotencyKey: idempotencyKey).nested("user"))
    }

    /// DeactivateUser: marks the user inactive (idempotent).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func deactivateUser(userId: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> User {
        try User(await fields(.deactivateUser, ["userId": .string(userId)], idempotencyKey: idempotencyKey).nested("user"))
    }

    /// StartSubscription: starts or extends the paid subscription by `months` (1…120).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func startSubscription(userId: String, months: Int, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> User {
        try User(await fields(.startSubscription, ["userId": .string(userId), "months": .int(months)], idempotencyKey: idempotencyKey).nested("user"))
    }
}

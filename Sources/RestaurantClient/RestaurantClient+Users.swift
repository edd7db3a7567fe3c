import WireJSON

extension RestaurantClient {
    /// RegisterUser: registers a new, active user. Errors: `invalid_input`, `conflict` (e-mail taken).
    public func registerUser(name: String, email: String) async throws(RestaurantClientError) -> User {
        try User(await fields(.registerUser, ["name": .string(name), "email": .string(email)]).nested("user"))
    }

    /// GetUserProfile: the profile with membership tier. Errors: `not_found`, `unauthorized`.
    public func getUserProfile(userId: String) async throws(RestaurantClientError) -> UserProfile {
        try UserProfile(await fields(.getUserProfile, ["userId": .string(userId)]).nested("profile"))
    }

    /// UpdateUserProfile: changes name and/or e-mail (`nil` leaves a field as it is).
    public func updateUserProfile(userId: String, name: String? = nil, email: String? = nil) async throws(RestaurantClientError) -> User {
        var params: JSONObject = ["userId": .string(userId)]
        if let name { params["name"] = .string(name) }
        if let email { params["email"] = .string(email) }
        return try User(await fields(.updateUserProfile, params).nested("user"))
    }

    /// DeactivateUser: marks the user inactive (idempotent).
    public func deactivateUser(userId: String) async throws(RestaurantClientError) -> User {
        try User(await fields(.deactivateUser, ["userId": .string(userId)]).nested("user"))
    }

    /// StartSubscription: starts or extends the paid subscription by `months` (1…120).
    public func startSubscription(userId: String, months: Int) async throws(RestaurantClientError) -> User {
        try User(await fields(.startSubscription, ["userId": .string(userId), "months": .int(months)]).nested("user"))
    }
}

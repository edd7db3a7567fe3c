import WireJSON
import WireContract

extension RestaurantClient {
    /// RegisterUser: registers a new, active user. Errors: `invalid_input`, `conflict` (e-mail taken).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func registerUser(name: String, email: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> User {
        try User(await fields(.registerUser, [WireMember.name.name: .string(name), WireMember.email.name: .string(email)], idempotencyKey: idempotencyKey).nested(WireMember.user.name))
    }

    /// GetUserProfile: the profile with membership tier. Errors: `not_found`, `unauthorized`.
    public func getUserProfile(userId: String) async throws(RestaurantClientError) -> UserProfile {
        try UserProfile(await fields(.getUserProfile, [WireMember.userId.name: .string(userId)]).nested(WireMember.profile.name))
    }

    /// UpdateUserProfile: changes name and/or e-mail (`nil` leaves a field as it is).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func updateUserProfile(userId: String, name: String? = nil, email: String? = nil, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> User {
        var params: JSONObject = [WireMember.userId.name: .string(userId)]
        if let name { params[WireMember.name.name] = .string(name) }
        if let email { params[WireMember.email.name] = .string(email) }
        return try User(await fields(.updateUserProfile, params, idempotencyKey: idempotencyKey).nested(WireMember.user.name))
    }

    /// DeactivateUser: marks the user inactive (idempotent).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func deactivateUser(userId: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> User {
        try User(await fields(.deactivateUser, [WireMember.userId.name: .string(userId)], idempotencyKey: idempotencyKey).nested(WireMember.user.name))
    }

    /// StartSubscription: starts or extends the paid subscription by `months` (1…120).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func startSubscription(userId: String, months: Int, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> User {
        try User(await fields(.startSubscription, [WireMember.userId.name: .string(userId), WireMember.months.name: .int(months)], idempotencyKey: idempotencyKey).nested(WireMember.user.name))
    }
}

/// A user as returned by RegisterUser, UpdateUserProfile, DeactivateUser and StartSubscription.
import WireContract
///
/// Times are kept as the wire's ISO-8601 UTC strings with milliseconds
/// (`2026-11-21T20:43:28.175Z`), unparsed.
public struct User: Sendable, Hashable {
    /// The user's id (`u-000001`… for sample users, a UUID for new ones).
    public var id: String
    /// The display name.
    public var name: String
    /// The e-mail address as registered.
    public var email: String
    /// Registration time (ISO-8601 UTC).
    public var joinedAt: String
    /// `false` after DeactivateUser.
    public var isActive: Bool
    /// End of the paid subscription (ISO-8601 UTC), `nil` if none was ever started.
    public var subscriptionActiveUntil: String?

    /// Creates a value (e.g. for test doubles); the client decodes replies itself.
    public init(id: String, name: String, email: String, joinedAt: String, isActive: Bool, subscriptionActiveUntil: String?) {
        self.id = id
        self.name = name
        self.email = email
        self.joinedAt = joinedAt
        self.isActive = isActive
        self.subscriptionActiveUntil = subscriptionActiveUntil
    }

    init(_ f: Fields) throws(RestaurantClientError) {
        id = try f.string(WireMember.id.name)
        name = try f.string(WireMember.name.name)
        email = try f.string(WireMember.email.name)
        joinedAt = try f.string(WireMember.joinedAt.name)
        isActive = try f.bool(WireMember.isActive.name)
        subscriptionActiveUntil = try f.optionalString(WireMember.subscriptionActiveUntil.name)
    }
}

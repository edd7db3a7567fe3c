/// A user's profile as returned by GetUserProfile.
import WireContract
public struct UserProfile: Sendable, Hashable {
    /// The user's id.
    public var id: String
    /// The display name.
    public var name: String
    /// The e-mail address.
    public var email: String
    /// `bronze`, `silver` or `gold`, by time since joining.
    public var membershipTier: String
    /// Whether a subscription is active now.
    public var canAccessPremiumContent: Bool

    /// Creates a value (e.g. for test doubles); the client decodes replies itself.
    public init(id: String, name: String, email: String, membershipTier: String, canAccessPremiumContent: Bool) {
        self.id = id
        self.name = name
        self.email = email
        self.membershipTier = membershipTier
        self.canAccessPremiumContent = canAccessPremiumContent
    }

    init(_ f: Fields) throws(RestaurantClientError) {
        id = try f.string(WireMember.id.name)
        name = try f.string(WireMember.name.name)
        email = try f.string(WireMember.email.name)
        membershipTier = try f.string(WireMember.membershipTier.name)
        canAccessPremiumContent = try f.bool(WireMember.canAccessPremiumContent.name)
    }
}

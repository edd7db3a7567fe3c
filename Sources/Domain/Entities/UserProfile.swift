/// What a user's profile shows, computed at a moment in time.
public struct UserProfile: Sendable, Hashable {
    /// The user's id.
    public let id: UserID
    /// Display name.
    public let name: String
    /// Contact address.
    public let email: EmailAddress
    /// Tier by time since joining.
    public let membershipTier: MembershipTier
    /// Whether the user's subscription is active now.
    public let canAccessPremiumContent: Bool

    /// The profile of `user` as of `now`.
    public init(user: User, now: Timestamp) {
        self.id = user.id
        self.name = user.name
        self.email = user.email
        self.membershipTier = user.membershipTier(at: now)
        self.canAccessPremiumContent = user.canAccessPremiumContent(at: now)
    }
}

/// A registered user of the platform.
public struct User: Sendable, Hashable, Identifiable {
    /// The user's id.
    public let id: UserID
    /// Display name, 1…100 characters.
    public let name: String
    /// Contact address, unique among users ignoring case.
    public let email: EmailAddress
    /// When the user registered.
    public let joinedAt: Timestamp
    /// Inactive users are refused by most use cases.
    public let isActive: Bool
    /// End of the paid subscription, if one was ever started.
    public let subscriptionActiveUntil: Timestamp?

    /// Creates a user value.
    public init(id: UserID, name: String, email: EmailAddress, joinedAt: Timestamp, isActive: Bool = true, subscriptionActiveUntil: Timestamp? = nil) {
        self.id = id
        self.name = name
        self.email = email
        self.joinedAt = joinedAt
        self.isActive = isActive
        self.subscriptionActiveUntil = subscriptionActiveUntil
    }

    /// The tier earned by time since joining, as of `now`.
    public func membershipTier(at now: Timestamp) -> MembershipTier {
        MembershipTier.forMember(joinedAt: joinedAt, now: now)
    }

    /// Whether a subscription is active at `now`.
    public func hasActiveSubscription(at now: Timestamp) -> Bool {
        guard let until = subscriptionActiveUntil else { return false }
        return now < until
    }

    /// Premium content is open to users with an active subscription.
    public func canAccessPremiumContent(at now: Timestamp) -> Bool {
        hasActiveSubscription(at: now)
    }

    /// A copy with some fields replaced.
    public func with(name: String? = nil, email: EmailAddress? = nil, isActive: Bool? = nil, subscriptionActiveUntil: Timestamp?? = nil) -> User {
        User(
            id: id,
            name: name ?? self.name,
            email: email ?? self.email,
            joinedAt: joinedAt,
            isActive: isActive ?? self.isActive,
            subscriptionActiveUntil: subscriptionActiveUntil ?? self.subscriptionActiveUntil
        )
    }
}

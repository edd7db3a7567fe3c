/// A user's tier, earned by time since joining.
public enum MembershipTier: String, Sendable, Hashable, CaseIterable {
    /// Under one year.
    case bronze
    /// One to under three years.
    case silver
    /// Three years or more.
    case gold

    /// The tier of a member who joined at `joinedAt`, as of `now` (calendar years, UTC).
    public static func forMember(joinedAt: Timestamp, now: Timestamp) -> MembershipTier {
        if now >= joinedAt.adding(years: 3) { return .gold }
        if now >= joinedAt.adding(years: 1) { return .silver }
        return .bronze
    }
}

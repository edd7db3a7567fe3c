/// Starts or extends an active user's paid subscription by whole calendar months.
public struct StartSubscription: Sendable {
    /// Accepted subscription lengths in months.
    public static let months = 1...120

    private let users: any UserRepository
    private let clock: any WallClock

    /// Creates the use case.
    public init(users: any UserRepository, clock: any WallClock) {
        self.users = users
        self.clock = clock
    }

    /// Months must be 1…120 [invalid_input]; the user must exist [not_found] and be active
    /// [unauthorized]. A running subscription is extended from its end, an expired or absent one
    /// starts now.
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(userId: UserID, months: Int, claim: IdempotencyClaim? = nil) async throws -> User {
        let months = try Validate.integer(months, field: "months", in: StartSubscription.months)
        let now = clock.now()
        return try await users.updateExisting(userId, claim: claim, event: DomainEvent.subscriptionStarted) { user in
            try user.requireActive()
            let start = max(now, user.subscriptionActiveUntil ?? now)
            return user.with(subscriptionActiveUntil: .some(start.adding(months: months)))
        }
    }
}

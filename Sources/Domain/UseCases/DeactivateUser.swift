/// Deactivates a user. Idempotent: deactivating an inactive user succeeds and changes nothing.
public struct DeactivateUser: Sendable {
    private let users: any UserRepository

    /// Creates the use case.
    public init(users: any UserRepository) {
        self.users = users
    }

    /// The deactivated user; unknown user [not_found].
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(userId: UserID, claim: IdempotencyClaim? = nil) async throws -> User {
        try await users.updateExisting(userId, claim: claim, event: DomainEvent.userDeactivated) { user in
            user.with(isActive: false)
        }
    }
}

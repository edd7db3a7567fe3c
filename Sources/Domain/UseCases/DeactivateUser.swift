/// Deactivates a user. Idempotent: deactivating an inactive user succeeds and changes nothing.
public struct DeactivateUser: Sendable {
    private let users: any UserRepository

    /// Creates the use case.
    public init(users: any UserRepository) {
        self.users = users
    }

    /// The deactivated user; unknown user [not_found].
    public func execute(userId: UserID) async throws -> User {
        try await users.updateExisting(userId) { user in
            user.with(isActive: false)
        }
    }
}

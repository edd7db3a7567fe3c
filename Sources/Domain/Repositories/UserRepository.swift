/// Stores users. E-mail uniqueness (by ``EmailAddress/uniquenessKey``) is enforced by the store
/// in the same atomic step as the write, so racing registrations cannot both succeed.
public protocol UserRepository: Sendable {
    /// Stores a new user unless another user has the same e-mail key.
    func insert(_ user: User) async throws -> UserWriteOutcome
    /// The user with this id.
    func user(id: UserID) async throws -> User?
    /// Reads the user, applies `change` and stores the result as one atomic step; no other
    /// write to the user can come between. Errors thrown by `change` abort without effect.
    func update(id: UserID, _ change: @escaping @Sendable (User) throws -> User) async throws -> UserWriteOutcome
}

/// What an atomic user write did.
public enum UserWriteOutcome: Sendable, Hashable {
    /// The user as stored.
    case stored(User)
    /// Nothing was written: another user has that e-mail address (ignoring case).
    case emailTaken
    /// Nothing was written: no user has that id.
    case notFound
}

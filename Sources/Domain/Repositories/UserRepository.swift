/// Stores users. E-mail uniqueness (by ``EmailAddress/uniquenessKey``) is enforced by the store
/// in the same atomic step as the write, so racing registrations cannot both succeed.
public protocol UserRepository: Sendable {
    /// Which of its reads (userById) it answers from what it holds in memory, without waiting for a
    /// database: the transport answers a use case whose reads are all held on the thread that
    /// received it.
    var heldReads: Set<RepositoryRead> { get }
    /// Stores a new user unless another user has the same e-mail key; binds `claim` to the
    /// stored user in the same step.
    func insert(_ user: User, claim: IdempotencyClaim?) async throws -> UserWriteOutcome
    /// The user with this id.
    func user(id: UserID) async throws -> User?
    /// Reads the user, applies `change` and stores the result as one atomic step; no other
    /// write to the user can come between. Errors thrown by `change` abort without effect. Binds
    /// `claim` to the stored user in the same step, and appends `event` of the stored user when
    /// it differs from the user read (a change to the same values appends nothing).
    func update(
        id: UserID, claim: IdempotencyClaim?, event: @escaping @Sendable (User) -> DomainEvent,
        _ change: @escaping @Sendable (User) throws -> User
    ) async throws -> UserWriteOutcome
}

extension UserRepository {
    /// ``insert(_:claim:)`` without an idempotency key.
    public func insert(_ user: User) async throws -> UserWriteOutcome {
        try await insert(user, claim: nil)
    }

    /// ``update(id:claim:event:_:)`` without an idempotency key, announced as a profile update.
    public func update(id: UserID, _ change: @escaping @Sendable (User) throws -> User) async throws -> UserWriteOutcome {
        try await update(id: id, claim: nil, event: DomainEvent.userProfileUpdated, change)
    }
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

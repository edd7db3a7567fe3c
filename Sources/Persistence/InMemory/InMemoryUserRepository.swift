import Domain

/// Users held in memory. Every method runs without suspending inside the actor, so each one is
/// a single atomic step: the e-mail uniqueness check and the write cannot be interleaved.
public actor InMemoryUserRepository: UserRepository {
    /// What it answers from memory: every read of it (it holds everything).
    public nonisolated var heldReads: Set<RepositoryRead> { [.userById] }

    private var users: [UserID: User] = [:]
    private var idsByEmailKey: [String: UserID] = [:]

    private let idempotency: InMemoryIdempotencyRepository

    /// An empty repository, binding idempotency keys in `idempotency` (share one ledger among the
    /// repositories of one store).
    public init(idempotency: InMemoryIdempotencyRepository = InMemoryIdempotencyRepository()) {
        self.idempotency = idempotency
    }

    /// Stores a new user unless the e-mail key is taken.
    public func insert(_ user: User, claim: IdempotencyClaim?) throws -> UserWriteOutcome {
        try idempotency.perform(claim) {
            let key = user.email.uniquenessKey
            guard idsByEmailKey[key] == nil else { return (.emailTaken, nil) }
            users[user.id] = user
            idsByEmailKey[key] = user.id
            return (.stored(user), .changed(.user(user), .userRegistered(user)))
        }
    }

    /// The user with this id.
    public func user(id: UserID) -> User? {
        users[id]
    }

    /// Applies `change` to the stored user and stores the result, atomically.
    public func update(
        id: UserID, claim: IdempotencyClaim?, event: @escaping @Sendable (User) -> DomainEvent,
        _ change: @escaping @Sendable (User) throws -> User
    ) throws -> UserWriteOutcome {
        try idempotency.perform(claim) {
            let before = users[id]
            let outcome = try store(id: id, change)
            guard case .stored(let user) = outcome else { return (outcome, nil) }
            return (outcome, user == before ? .unchanged(.user(user)) : .changed(.user(user), event(user)))
        }
    }

    private func store(id: UserID, _ change: (User) throws -> User) throws -> UserWriteOutcome {
        guard let current = users[id] else { return .notFound }
        let updated = try change(current)
        let oldKey = current.email.uniquenessKey
        let newKey = updated.email.uniquenessKey
        if newKey != oldKey {
            guard idsByEmailKey[newKey] == nil else { return .emailTaken }
            idsByEmailKey[oldKey] = nil
            idsByEmailKey[newKey] = id
        }
        users[id] = updated
        return .stored(updated)
    }

    /// Every stored user, for audits and tests.
    public func allUsers() -> [User] {
        Array(users.values)
    }
}

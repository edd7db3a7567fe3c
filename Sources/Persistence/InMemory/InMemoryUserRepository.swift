import Domain

/// Users held in memory. Every method runs without suspending inside the actor, so each one is
/// a single atomic step: the e-mail uniqueness check and the write cannot be interleaved.
public actor InMemoryUserRepository: UserRepository {
    private var users: [UserID: User] = [:]
    private var idsByEmailKey: [String: UserID] = [:]

    /// An empty repository.
    public init() {}

    /// Stores a new user unless the e-mail key is taken.
    public func insert(_ user: User) -> UserWriteOutcome {
        let key = user.email.uniquenessKey
        guard idsByEmailKey[key] == nil else { return .emailTaken }
        users[user.id] = user
        idsByEmailKey[key] = user.id
        return .stored(user)
    }

    /// The user with this id.
    public func user(id: UserID) -> User? {
        users[id]
    }

    /// Applies `change` to the stored user and stores the result, atomically.
    public func update(id: UserID, _ change: @escaping @Sendable (User) throws -> User) throws -> UserWriteOutcome {
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

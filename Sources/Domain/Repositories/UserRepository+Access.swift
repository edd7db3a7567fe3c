extension UserRepository {
    /// The user with this id, who must exist [not_found] and be active [unauthorized].
    func activeUser(_ id: UserID) async throws -> User {
        let user = try await existingUser(id)
        guard user.isActive else {
            throw DomainError.unauthorized(reason: "user \(id) is inactive")
        }
        return user
    }

    /// The user with this id, who must exist [not_found].
    func existingUser(_ id: UserID) async throws -> User {
        guard let user = try await user(id: id) else {
            throw DomainError.notFound(entity: "user", id: id.rawValue)
        }
        return user
    }

    /// Runs an atomic update (binding `claim` to the stored user, appending `event` when it
    /// changed something) and turns its outcome into the user or a domain error.
    func updateExisting(
        _ id: UserID, claim: IdempotencyClaim?, event: @escaping @Sendable (User) -> DomainEvent,
        _ change: @escaping @Sendable (User) throws -> User
    ) async throws -> User {
        switch try await update(id: id, claim: claim, event: event, change) {
        case .stored(let user): return user
        case .notFound: throw DomainError.notFound(entity: "user", id: id.rawValue)
        case .emailTaken: throw DomainError.conflict(reason: "email is already registered")
        }
    }
}

extension User {
    /// Refuses a change to an inactive user [unauthorized]; used inside atomic updates so the
    /// check and the write cannot be separated by a concurrent deactivation.
    func requireActive() throws(DomainError) {
        guard isActive else { throw .unauthorized(reason: "user \(id) is inactive") }
    }
}

/// Changes an active user's name and/or e-mail address.
public struct UpdateUserProfile: Sendable {
    /// What the caller supplies; absent fields stay as they are.
    public struct Input: Sendable, Hashable {
        /// The user to change.
        public var userId: UserID
        /// New display name.
        public var name: String?
        /// New e-mail address.
        public var email: String?

        /// Creates the input.
        public init(userId: UserID, name: String? = nil, email: String? = nil) {
            self.userId = userId
            self.name = name
            self.email = email
        }
    }

    private let users: any UserRepository

    /// Creates the use case.
    public init(users: any UserRepository) {
        self.users = users
    }

    /// Validates the given fields [invalid_input]; the user must exist [not_found] and be active
    /// [unauthorized]; a new address must not belong to another user [conflict]. With no field
    /// given it changes nothing and returns the user.
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(_ input: Input, claim: IdempotencyClaim? = nil) async throws -> User {
        let name = try input.name.map { name throws(DomainError) in try Validate.name(name, field: "name") }
        let email = try input.email.map { raw throws(DomainError) in
            guard let email = EmailAddress(raw) else {
                throw DomainError.invalidInput(field: "email", reason: "is not a valid e-mail address")
            }
            return email
        }
        return try await users.updateExisting(input.userId, claim: claim, event: DomainEvent.userProfileUpdated) { user in
            try user.requireActive()
            return user.with(name: name, email: email)
        }
    }
}

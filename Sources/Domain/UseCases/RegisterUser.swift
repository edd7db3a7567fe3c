/// Registers a new user with a unique e-mail address.
public struct RegisterUser: Sendable {
    /// What the caller supplies.
    public struct Input: Sendable, Hashable {
        /// Display name.
        public var name: String
        /// E-mail address.
        public var email: String

        /// Creates the input.
        public init(name: String, email: String) {
            self.name = name
            self.email = email
        }
    }

    private let users: any UserRepository
    private let clock: any WallClock
    private let ids: any IdentifierGenerator

    /// Creates the use case over its repository and ports.
    public init(users: any UserRepository, clock: any WallClock, ids: any IdentifierGenerator) {
        self.users = users
        self.clock = clock
        self.ids = ids
    }

    /// Validates name [invalid_input] and e-mail [invalid_input] and stores the user unless the
    /// address is taken, ignoring case [conflict].
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(_ input: Input, claim: IdempotencyClaim? = nil) async throws -> User {
        let name = try Validate.name(input.name, field: "name")
        guard let email = EmailAddress(input.email) else {
            throw DomainError.invalidInput(field: "email", reason: "is not a valid e-mail address")
        }
        let user = User(id: ids.make(), name: name, email: email, joinedAt: clock.now())
        switch try await users.insert(user, claim: claim) {
        case .stored(let stored): return stored
        case .emailTaken: throw DomainError.conflict(reason: "email is already registered")
        case .notFound: throw DomainError.notFound(entity: "user", id: user.id.rawValue)
        }
    }
}

import Domain
import PostgresNIO

/// Users in PostgreSQL. E-mail uniqueness is the unique index on `email_key`, checked by the
/// database in the same statement as the insert or update, so it holds across every instance.
/// An update locks the user's row (`SELECT … FOR UPDATE`) for the read, the change and the
/// write, so no other write to the user, on any instance, comes between.
///
/// A struct, not an actor: it holds no state of its own (the database does), so there is
/// nothing to isolate and every call goes straight to the connection pool.
///
/// Registrations without an idempotency key that arrive while others are being written go
/// together in one `INSERT` (``StatementBatcher``): the unique index still decides each row.
public struct PostgresUserRepository: UserRepository {
    private let store: PostgresStore
    private let registrations: StatementBatcher<User, Bool>

    /// Users of `store`.
    public init(store: PostgresStore) {
        self.store = store
        registrations = StatementBatcher(
            maximumBatches: store.configuration.writeBatches, maximumItems: store.configuration.writeBatchRows
        ) { [store] users in
            let records = users.map { UserRecord($0) }
            let inserted = try await store.writeStatement { connection, logger in
                try await connection.rows(InsertUsers.self, logger, binding: { try InsertUsers.statement.bind(records, to: &$0) }) {
                    try $0.decode(String.self)
                }
            }
            let stored = Set(inserted)
            return users.map { stored.contains($0.id.rawValue) }
        }
    }

    /// Stores a new user unless the e-mail key is taken; returns once committed.
    public func insert(_ user: User, claim: IdempotencyClaim?) async throws -> UserWriteOutcome {
        guard claim != nil else {
            return try await registrations.submit(user) ? .stored(user) : .emailTaken
        }
        return try await store.writeOne(claim: claim) { connection, logger in
            let record = UserRecord(user)
            let inserted = try await connection.rows(InsertUser.self, logger) { try InsertUser.statement.bind(record, to: &$0) }
            return inserted.isEmpty ? (.emailTaken, nil) : (.stored(user), .user(user))
        }
    }

    /// The user with this id.
    public func user(id: UserID) async throws -> User? {
        try await store.read { connection, logger in
            try await connection.rows(SelectUser.self, logger, binding: { $0.append(id.rawValue) }) { try UserRecord($0).user() }.first
        }
    }

    /// Reads the user under a row lock, applies `change` and writes the result, in one
    /// transaction; an address another user has (the unique index says so) is `.emailTaken`.
    public func update(id: UserID, claim: IdempotencyClaim?, _ change: @escaping @Sendable (User) throws -> User) async throws -> UserWriteOutcome {
        do {
            return try await store.write(claim: claim) { connection, logger in
                guard let current = try await connection.row(
                    "SELECT \(unescaped: UserRecord.postgresSelection) FROM users WHERE id = \(id.rawValue) FOR UPDATE", logger, { try UserRecord($0).user() }
                ) else {
                    return (.notFound, nil)
                }
                let updated = try change(current)
                try await connection.run(Self.update.query(UserRecord(updated)), logger)
                return (.stored(updated), .user(updated))
            }
        } catch where PostgresFailure.isUniqueViolation(error, constraint: "users_email_key_unique") {
            // The transaction (and any claim in it) was rolled back: nothing was written.
            return .emailTaken
        }
    }

    /// UpdateUserProfile, DeactivateUser, StartSubscription: every column of the user's row.
    private static let update = PostgresStatement<UserRecord> { s in
        "UPDATE users SET \(s.assignments(except: [.id], of: { $0 })) WHERE id = \(s.value { $0.id })"
    }

    /// Every stored user, for audits and tests.
    public func allUsers() async throws -> [User] {
        try await store.read { connection, logger in
            try await connection.rows("SELECT \(unescaped: UserRecord.postgresSelection) FROM users ORDER BY id", logger) { try UserRecord($0).user() }
        }
    }
}

/// RegisterUser's insert: a taken e-mail key inserts nothing and returns no row.
private enum InsertUser: PreparedSQL {
    static let name = "svc_insert_user"
    static let statement = PostgresStatement<UserRecord> { s in
        "\(s.insert { $0 }) ON CONFLICT (email_key) DO NOTHING RETURNING id"
    }
    static var sql: String { statement.sql }
}

/// RegisterUser's insert for several users at once, one array per column (one prepared
/// statement for any count): each row whose e-mail key is taken, by a stored user or an earlier
/// row of the same statement, inserts nothing and returns no id.
private enum InsertUsers: PreparedSQL {
    static let name = "svc_insert_users"
    static let statement = PostgresStatement<[UserRecord]> { s in
        "INSERT INTO users (\(UserRecord.postgresSelection)) \(s.rows { $0 }) ON CONFLICT (email_key) DO NOTHING RETURNING id"
    }
    static var sql: String { statement.sql }
}

/// A user by id: the first read of nearly every use case.
private enum SelectUser: PreparedSQL {
    static let name = "svc_select_user"
    static let sql = "SELECT \(UserRecord.postgresSelection) FROM users WHERE id = $1"
}

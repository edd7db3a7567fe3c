import Domain
import GRDB

/// Users in SQLite. E-mail uniqueness is the `UNIQUE` `email_key` column, checked in the same
/// write transaction as the insert or update, so it holds across connections and processes.
public actor SQLiteUserRepository: UserRepository {
    private let store: SQLiteStore

    /// Users of `store`.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Stores a new user unless the e-mail key is taken; returns once durable.
    public func insert(_ user: User) async throws -> UserWriteOutcome {
        try await store.write { db in
            guard try db.row("SELECT 1 FROM users WHERE email_key = ?", [user.email.uniquenessKey]) == nil else {
                return .emailTaken
            }
            try db.run(
                "INSERT INTO users (\(UserRecord.columns), email_key) VALUES (?, ?, ?, ?, ?, ?, ?)",
                UserRecord.arguments(user)
            )
            return .stored(user)
        }
    }

    /// The user with this id.
    public func user(id: UserID) async throws -> User? {
        try await store.read { db in
            try db.row("SELECT \(UserRecord.columns) FROM users WHERE id = ?", [id.rawValue]).map(UserRecord.user)
        }
    }

    /// Reads the user, applies `change` and writes the result in one write transaction.
    public func update(id: UserID, _ change: @escaping @Sendable (User) throws -> User) async throws -> UserWriteOutcome {
        try await store.write { db in
            guard let row = try db.row("SELECT \(UserRecord.columns) FROM users WHERE id = ?", [id.rawValue]) else {
                return .notFound
            }
            let updated = try change(try UserRecord.user(from: row))
            let key = updated.email.uniquenessKey
            guard try db.row("SELECT 1 FROM users WHERE email_key = ? AND id <> ?", [key, id.rawValue]) == nil else {
                return .emailTaken
            }
            var arguments = UserRecord.arguments(updated)
            arguments += [id.rawValue]
            try db.run(
                """
                UPDATE users SET id = ?, name = ?, email = ?, joined_at = ?, is_active = ?,
                    subscription_active_until = ?, email_key = ?
                WHERE id = ?
                """,
                arguments
            )
            return .stored(updated)
        }
    }

    /// Every stored user, for audits and tests.
    public func allUsers() async throws -> [User] {
        try await store.read { db in
            try db.rows("SELECT \(UserRecord.columns) FROM users ORDER BY id").map(UserRecord.user)
        }
    }
}

import Domain
import GRDB

/// Users in SQLite, with every user also held by this actor for the by-id reads that nearly
/// every use case starts with (the active-user check).
///
/// E-mail uniqueness is the `UNIQUE` `email_key` column, checked in the same write transaction
/// as the insert or update, so it holds across connections and processes. Updates read the user
/// from the database inside the write transaction, never from the held copy. The held copy only
/// moves forward: each update increments the row's `version`, and a copy is replaced only by a
/// newer version, so concurrent updates finishing out of order cannot roll it back.
public actor SQLiteUserRepository: UserRepository {
    private let store: SQLiteStore
    private var usersById: [UserID: Versioned]

    private struct Versioned: Sendable {
        let user: User
        let version: Int
    }

    /// Users of `store`, loading every user into memory first.
    public init(store: SQLiteStore) async throws {
        self.store = store
        usersById = try await store.read { db in
            var users: [UserID: Versioned] = [:]
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(UserRecord.columns), version FROM users")
            while let row = try cursor.next() {
                let user = try UserRecord.user(from: row)
                users[user.id] = Versioned(user: user, version: try row.decode(forColumn: "version"))
            }
            return users
        }
    }

    /// How many users this actor holds.
    public var count: Int { usersById.count }

    /// Stores a new user unless the e-mail key is taken; returns once durable.
    public func insert(_ user: User, claim: IdempotencyClaim?) async throws -> UserWriteOutcome {
        let outcome: UserWriteOutcome = try await store.write(boundTo: claim) { db in
            // The unique index decides: a taken key inserts nothing (and does not abort the batch).
            try db.run(
                "INSERT INTO users (\(UserRecord.columns), email_key) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email_key) DO NOTHING",
                UserRecord.arguments(user)
            )
            return db.changesCount == 1 ? (.stored(user), .user(user)) : (.emailTaken, nil)
        }
        if case .stored(let stored) = outcome { remember(stored, version: 0) }
        return outcome
    }

    /// The user with this id.
    public func user(id: UserID) async throws -> User? {
        if let held = usersById[id] { return held.user }
        // Not held: registered by another process on the same store, or unknown.
        let fetched = try await store.read { db -> Versioned? in
            guard let row = try db.row("SELECT \(UserRecord.columns), version FROM users WHERE id = ?", [id.rawValue]) else { return nil }
            return Versioned(user: try UserRecord.user(from: row), version: try row.decode(forColumn: "version"))
        }
        guard let fetched else { return nil }
        remember(fetched.user, version: fetched.version)
        return usersById[id]?.user
    }

    /// Reads the user, applies `change` and writes the result in one write transaction.
    public func update(id: UserID, claim: IdempotencyClaim?, _ change: @escaping @Sendable (User) throws -> User) async throws -> UserWriteOutcome {
        let written: (outcome: UserWriteOutcome, version: Int) = try await store.write(boundTo: claim) { db in
            guard let row = try db.row("SELECT \(UserRecord.columns), version FROM users WHERE id = ?", [id.rawValue]) else {
                return ((.notFound, 0), nil)
            }
            let version: Int = try row.decode(forColumn: "version") + 1
            let updated = try change(try UserRecord.user(from: row))
            let key = updated.email.uniquenessKey
            guard try db.row("SELECT 1 FROM users WHERE email_key = ? AND id <> ?", [key, id.rawValue]) == nil else {
                return ((.emailTaken, 0), nil)
            }
            var arguments = UserRecord.arguments(updated)
            arguments += [version, id.rawValue]
            try db.run(
                """
                UPDATE users SET id = ?, name = ?, email = ?, joined_at = ?, is_active = ?,
                    subscription_active_until = ?, email_key = ?, version = ?
                WHERE id = ?
                """,
                arguments
            )
            return ((.stored(updated), version), .user(updated))
        }
        if case .stored(let stored) = written.outcome { remember(stored, version: written.version) }
        return written.outcome
    }

    /// Every stored user, for audits and tests (read from the database).
    public func allUsers() async throws -> [User] {
        try await store.read { db in
            try db.rows("SELECT \(UserRecord.columns) FROM users ORDER BY id").map(UserRecord.user)
        }
    }

    /// Keeps `user` unless the held copy is as new or newer.
    private func remember(_ user: User, version: Int) {
        if let held = usersById[user.id], held.version >= version { return }
        usersById[user.id] = Versioned(user: user, version: version)
    }
}

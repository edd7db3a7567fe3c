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
            let cursor = try UserRecord.fetchCursor(db, sql: "SELECT \(UserRecord.selection) FROM users")
            while let record = try cursor.next() {
                let user = try record.user()
                users[user.id] = Versioned(user: user, version: record.version)
            }
            return users
        }
    }

    /// How many users this actor holds.
    public var count: Int { usersById.count }

    /// Stores a new user unless the e-mail key is taken; returns once durable.
    public func insert(_ user: User, claim: IdempotencyClaim?) async throws -> UserWriteOutcome {
        let record = UserRecord(user)
        let outcome: UserWriteOutcome = try await store.write(boundTo: claim) { db in
            // The unique index decides: a taken key inserts nothing (and does not abort the batch).
            try db.run(Self.insertUnlessEmailTaken, record.databaseArguments)
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
            guard let record = try db.record(UserRecord.self, Self.selectUser, [id.rawValue]) else { return nil }
            return Versioned(user: try record.user(), version: record.version)
        }
        guard let fetched else { return nil }
        remember(fetched.user, version: fetched.version)
        return usersById[id]?.user
    }

    /// Reads the user, applies `change` and writes the result in one write transaction.
    public func update(id: UserID, claim: IdempotencyClaim?, _ change: @escaping @Sendable (User) throws -> User) async throws -> UserWriteOutcome {
        let written: (outcome: UserWriteOutcome, version: Int) = try await store.write(boundTo: claim) { db in
            guard let current = try db.record(UserRecord.self, Self.selectUser, [id.rawValue]) else {
                return ((.notFound, 0), nil)
            }
            let updated = try change(try current.user())
            let record = UserRecord(updated, version: current.version + 1)
            guard try db.row("SELECT 1 FROM users WHERE email_key = ? AND id <> ?", [record.emailKey, id.rawValue]) == nil else {
                return ((.emailTaken, 0), nil)
            }
            try db.run(Self.updateUser, record.namedArguments)
            return ((.stored(updated), record.version), .user(updated))
        }
        if case .stored(let stored) = written.outcome { remember(stored, version: written.version) }
        return written.outcome
    }

    /// Every stored user, for audits and tests (read from the database).
    public func allUsers() async throws -> [User] {
        try await store.read { db in
            try db.records(UserRecord.self, "SELECT \(UserRecord.selection) FROM users ORDER BY id").map { try $0.user() }
        }
    }

    /// A user by id.
    private static let selectUser = "SELECT \(UserRecord.selection) FROM users WHERE id = ?"

    /// RegisterUser: a new row, unless its e-mail key is taken.
    private static let insertUnlessEmailTaken = UserRecord.insertion + " ON CONFLICT (email_key) DO NOTHING"

    /// Every column of a user's row, by id, from ``SQLiteRecord/namedArguments``.
    private static let updateUser = "UPDATE users SET \(UserRecord.assignments(except: [.id])) WHERE id = :id"

    /// Keeps `user` unless the held copy is as new or newer.
    private func remember(_ user: User, version: Int) {
        if let held = usersById[user.id], held.version >= version { return }
        usersById[user.id] = Versioned(user: user, version: version)
    }
}

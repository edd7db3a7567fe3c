import Domain
import GRDB
import Synchronization

/// Users in SQLite, with every user also held in memory for the by-id reads that nearly every
/// use case starts with (the active-user check).
///
/// E-mail uniqueness is the `UNIQUE` `email_key` column, checked in the same write transaction
/// as the insert or update, so it holds across connections and processes. Updates read the user
/// from the database inside the write transaction, never from the held copy.
///
/// The held copy is changed by each write's `committed` step, which the group committer runs
/// right after the commit, one write at a time in commit order, before the write's caller
/// resumes: a read after an `ok` sees the write. It only moves forward: each update increments
/// the row's `version`, and a copy is replaced only by a newer version, so a user fetched from
/// the database (registered by another process on the same file) cannot roll back a later
/// update either. Because those steps run on GRDB's writer queue, the copy is behind a lock of
/// its own (a class holding a `Mutex`, not an actor: nothing here needs an actor's queue), and
/// every method is `nonisolated(nonsending)`: it runs on its caller's executor (an endpoint's
/// socket thread, or a write's task) without a switch to another executor and back, two queued
/// jobs fewer per request.
public final class SQLiteUserRepository: UserRepository {
    /// What it answers from memory: the reads served from the copy it holds.
    public var heldReads: Set<RepositoryRead> { [.userById] }

    private let store: SQLiteStore
    /// Every user by id, as of the last commit, with its row's version.
    private let held: Mutex<[UserID: Versioned]>

    private struct Versioned: Sendable {
        let user: User
        let version: Int
    }

    /// Users of `store`, loading every user into memory first.
    public init(store: SQLiteStore) async throws {
        self.store = store
        held = Mutex(try await store.read { db in
            var users: [UserID: Versioned] = [:]
            let cursor = try UserRecord.fetchCursor(db, sql: "SELECT \(UserRecord.selection) FROM users")
            while let record = try cursor.next() {
                let user = try record.user()
                users[user.id] = Versioned(user: user, version: record.version)
            }
            return users
        })
    }

    /// How many users are held.
    public var count: Int { held.withLock { $0.count } }

    /// Stores a new user unless the e-mail key is taken; returns once durable.
    public nonisolated(nonsending) func insert(_ user: User, claim: IdempotencyClaim?) async throws -> UserWriteOutcome {
        let record = UserRecord(user)
        let event = store.prepare(.userRegistered(user))
        return try await store.write(boundTo: claim, { db in
            // The unique index decides: a taken key inserts nothing (and does not abort the batch).
            try db.bindInPlace(record, sql: Self.insertUnlessEmailTaken).execute()
            return db.changesCount == 1 ? (.stored(user), .changed(.user(user), prepared: event)) : (.emailTaken, nil)
        }, committed: { outcome in
            if case .stored(let stored) = outcome { self.remember(stored, version: 0) }
        })
    }

    /// The user with this id.
    public nonisolated(nonsending) func user(id: UserID) async throws -> User? {
        if let user = held.withLock({ $0[id]?.user }) { return user }
        // Not held: registered by another process on the same store, or unknown.
        let fetched = try await store.read { db -> Versioned? in
            guard let record = try db.record(UserRecord.self, Self.selectUser, [id.rawValue]) else { return nil }
            return Versioned(user: try record.user(), version: record.version)
        }
        guard let fetched else { return nil }
        return remember(fetched.user, version: fetched.version)
    }

    /// Reads the user, applies `change` and writes the result in one write transaction.
    public nonisolated(nonsending) func update(
        id: UserID, claim: IdempotencyClaim?, event: @escaping @Sendable (User) -> DomainEvent,
        _ change: @escaping @Sendable (User) throws -> User
    ) async throws -> UserWriteOutcome {
        let written: (outcome: UserWriteOutcome, version: Int) = try await store.write(boundTo: claim, { db in
            guard let current = try db.record(UserRecord.self, Self.selectUser, [id.rawValue]) else {
                return ((.notFound, 0), nil)
            }
            let stored = try current.user()
            let updated = try change(stored)
            let record = UserRecord(updated, version: current.version + 1)
            guard try db.row("SELECT 1 FROM users WHERE email_key = ? AND id <> ?", [record.emailKey, id.rawValue]) == nil else {
                return ((.emailTaken, 0), nil)
            }
            try db.run(Self.updateUser, record.namedArguments)
            let written: StoredWrite = updated == stored ? .unchanged(.user(updated)) : .changed(.user(updated), event(updated))
            return ((.stored(updated), record.version), written)
        }, committed: { written in
            if case .stored(let stored) = written.outcome { self.remember(stored, version: written.version) }
        })
        return written.outcome
    }

    /// Every stored user, for audits and tests (read from the database).
    public nonisolated(nonsending) func allUsers() async throws -> [User] {
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

    /// Keeps `user` unless the held copy is as new or newer; returns the copy held afterwards.
    @discardableResult
    private func remember(_ user: User, version: Int) -> User {
        held.withLock { users in
            if let kept = users[user.id], kept.version >= version { return kept.user }
            users[user.id] = Versioned(user: user, version: version)
            return user
        }
    }
}

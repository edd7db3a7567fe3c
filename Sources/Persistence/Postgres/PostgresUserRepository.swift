import Domain
import PostgresNIO

/// Users in PostgreSQL. E-mail uniqueness is the unique index on `email_key`, checked by the
/// database in the same statement as the insert or update, so it holds across every instance.
/// An update locks the user's row (`SELECT … FOR UPDATE`) for the read, the change and the
/// write, so no other write to the user, on any instance, comes between.
///
/// A struct, not an actor: the database holds the state, so there is nothing to isolate; its
/// only state of its own is the registrations and reads by id waiting to go together, each
/// behind a lock of its own.
///
/// Registrations without an idempotency key that arrive while others are being written go
/// together in one `INSERT` (``StatementBatcher``): the unique index still decides each row, and
/// the same statement appends the event of each row it inserted.
public struct PostgresUserRepository: UserRepository {
    /// None: every read waits for the database.
    public var heldReads: Set<RepositoryRead> { [] }

    private let store: PostgresStore
    private let registrations: StatementBatcher<Registration, Bool>
    private let byId: PostgresRowLookup<UserRecord, User>

    /// Users of `store`.
    public init(store: PostgresStore) {
        self.store = store
        byId = PostgresRowLookup(store: store, one: SelectUser.self, many: SelectUsers.self, id: \.id) { try $0.user() }
        registrations = StatementBatcher(
            maximumBatches: store.configuration.writeBatches, maximumItems: store.configuration.writeBatchRows
        ) { [store] registrations in
            let batch = RegistrationBatch(users: registrations.map(\.user), events: registrations.compactMap(\.event))
            let inserted = try await store.writeStatement { connection, logger in
                if batch.events.isEmpty {
                    return try await connection.rows(InsertUsers.self, logger, binding: { try InsertUsers.statement.bind(batch.users, to: &$0) }) {
                        try $0.decode(String.self)
                    }
                }
                return try await connection.rows(InsertAnnouncedUsers.self, logger, binding: { try InsertAnnouncedUsers.statement.bind(batch, to: &$0) }) {
                    try $0.decode(String.self)
                }
            }
            if !batch.events.isEmpty, !inserted.isEmpty { store.sequencer.wake() }
            let stored = Set(inserted)
            return registrations.map { stored.contains($0.user.id) }
        }
    }

    /// Stores a new user unless the e-mail key is taken; returns once committed.
    public func insert(_ user: User, claim: IdempotencyClaim?) async throws -> UserWriteOutcome {
        guard claim != nil else {
            let registration = Registration(user: UserRecord(user), event: store.eventRecord(.userRegistered(user), at: store.clock.now()))
            return try await registrations.submit(registration) ? .stored(user) : .emailTaken
        }
        return try await store.writeOne(claim: claim) { connection, logger in
            let record = UserRecord(user)
            let inserted = try await connection.rows(InsertUser.self, logger) { try InsertUser.statement.bind(record, to: &$0) }
            return inserted.isEmpty ? (.emailTaken, nil) : (.stored(user), .changed(.user(user), .userRegistered(user)))
        }
    }

    /// Reads by id waiting to go together in the next statement (for tests).
    var readsWaitingTogether: Int {
        byId.waitingCount
    }

    /// The user with this id (read together with others asked meanwhile).
    public func user(id: UserID) async throws -> User? {
        try await byId(id.rawValue)
    }

    /// Reads the user under a row lock, applies `change` and writes the result, in one
    /// transaction; an address another user has (the unique index says so) is `.emailTaken`.
    public func update(
        id: UserID, claim: IdempotencyClaim?, event: @escaping @Sendable (User) -> DomainEvent,
        _ change: @escaping @Sendable (User) throws -> User
    ) async throws -> UserWriteOutcome {
        do {
            return try await store.write(claim: claim) { connection, logger in
                guard let current = try await connection.row(
                    "SELECT \(unescaped: UserRecord.postgresSelection) FROM users WHERE id = \(id.rawValue) FOR UPDATE", logger, { try UserRecord($0).user() }
                ) else {
                    return (.notFound, nil)
                }
                let updated = try change(current)
                try await connection.run(Self.update.query(UserRecord(updated)), logger)
                return (.stored(updated), updated == current ? .unchanged(.user(updated)) : .changed(.user(updated), event(updated)))
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

/// One registration waiting for a batch: the user's row and, unless events are not recorded for
/// it, its event's.
private struct Registration: Sendable {
    let user: UserRecord
    let event: EventRecord?
}

/// What ``InsertAnnouncedUsers`` binds: the users' rows and their events' rows.
private struct RegistrationBatch: Sendable {
    let users: [UserRecord]
    let events: [EventRecord]
}

/// ``InsertUsers`` that also appends the event of each row it inserted (a row refused for its
/// e-mail key appends nothing), in the same statement: one round trip, as without events.
private enum InsertAnnouncedUsers: PreparedSQL {
    static let name = "svc_insert_announced_users"
    static let statement = PostgresStatement<RegistrationBatch> { s in
        let users = s.rows { $0.users }
        let events = s.rows { $0.events }
        let eventColumns = EventRecord.postgresColumns.map { "event.\($0.name)" }.joined(separator: ", ")
        return """
            WITH inserted AS (
                INSERT INTO users (\(UserRecord.postgresSelection)) \(users) ON CONFLICT (email_key) DO NOTHING RETURNING id
            ), announced AS (
                INSERT INTO events (\(EventRecord.postgresSelection))
                SELECT \(eventColumns) FROM (\(events)) AS event JOIN inserted ON inserted.id = event.\(EventRecord.Columns.key.name) COLLATE "C"
            )
            SELECT id FROM inserted
            """
    }
    static var sql: String { statement.sql }
}

/// A user by id: the first read of nearly every use case.
private enum SelectUser: PreparedSQL {
    static let name = "svc_select_user"
    static let sql = "SELECT \(UserRecord.postgresSelection) FROM users WHERE id = $1"
}

/// Users by id, for reads by id asked together (``PostgresRowLookup``).
private enum SelectUsers: PreparedSQL {
    static let name = "svc_select_users"
    static let sql = "SELECT \(UserRecord.postgresSelection) FROM users WHERE id = ANY($1)"
}

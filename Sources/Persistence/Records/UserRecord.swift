import Domain
import GRDB

/// The `users` row of a ``User``: one property per column. `email_key` is derived from the
/// address (``EmailAddress/uniquenessKey``); `version` counts the row's updates, so that a
/// process's held copy of a user only moves forward (SQLite only: PostgreSQL's repositories hold
/// no copies, and its table has no such column).
struct UserRecord: Sendable {
    var id: String
    var name: String
    var email: String
    var emailKey: String
    var joinedAt: Int64
    var isActive: Bool
    var subscriptionActiveUntil: Int64?
    var version: Int

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case id, name, email
        case emailKey = "email_key"
        case joinedAt = "joined_at"
        case isActive = "is_active"
        case subscriptionActiveUntil = "subscription_active_until"
        case version
    }

    /// The row of `user`, at `version`.
    init(_ user: User, version: Int = 0) {
        id = user.id.rawValue
        name = user.name
        email = user.email.value
        emailKey = user.email.uniquenessKey
        joinedAt = user.joinedAt.millisecondsSinceEpoch
        isActive = user.isActive
        subscriptionActiveUntil = user.subscriptionActiveUntil?.millisecondsSinceEpoch
        self.version = version
    }

    /// The user of this row; an `email` that is not an e-mail address is an error.
    func user() throws -> User {
        guard let address = EmailAddress(email) else {
            throw StoreError.unmappable(table: Self.databaseTableName, column: Columns.email.name, value: email)
        }
        return User(
            id: UserID(id), name: name, email: address, joinedAt: Timestamp(millisecondsSinceEpoch: joinedAt), isActive: isActive,
            subscriptionActiveUntil: subscriptionActiveUntil.map(Timestamp.init(millisecondsSinceEpoch:))
        )
    }
}

extension UserRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "users"
    static let selection = columnList()
    static let insertion = insertStatement()

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        name = try row.decode(forColumn: Columns.name)
        email = try row.decode(forColumn: Columns.email)
        emailKey = try row.decode(forColumn: Columns.emailKey)
        joinedAt = try row.decode(forColumn: Columns.joinedAt)
        isActive = try row.decode(forColumn: Columns.isActive)
        subscriptionActiveUntil = try row.decode(forColumn: Columns.subscriptionActiveUntil)
        version = try row.decode(forColumn: Columns.version)
    }

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .id: id
        case .name: name
        case .email: email
        case .emailKey: emailKey
        case .joinedAt: joinedAt
        case .isActive: isActive
        case .subscriptionActiveUntil: subscriptionActiveUntil
        case .version: version
        }
    }
}

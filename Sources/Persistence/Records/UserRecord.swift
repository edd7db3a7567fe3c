import Domain
import GRDB

/// The `users` row of a ``User``, both ways.
enum UserRecord {
    static let columns = "id, name, email, joined_at, is_active, subscription_active_until"

    static func user(from row: Row) throws -> User {
        let rawEmail: String = try row.decode(forColumn: "email")
        guard let email = EmailAddress(rawEmail) else {
            throw StoreError.unmappable(table: "users", column: "email", value: rawEmail)
        }
        let subscription: Int64? = try row.decode(forColumn: "subscription_active_until")
        return User(
            id: UserID(try row.decode(forColumn: "id")),
            name: try row.decode(forColumn: "name"),
            email: email,
            joinedAt: Timestamp(millisecondsSinceEpoch: try row.decode(forColumn: "joined_at")),
            isActive: try row.decode(forColumn: "is_active"),
            subscriptionActiveUntil: subscription.map(Timestamp.init(millisecondsSinceEpoch:))
        )
    }

    /// In ``columns`` order, then `email_key`.
    static func arguments(_ user: User) -> StatementArguments {
        [
            user.id.rawValue, user.name, user.email.value, user.joinedAt.millisecondsSinceEpoch,
            user.isActive, user.subscriptionActiveUntil?.millisecondsSinceEpoch, user.email.uniquenessKey,
        ]
    }
}

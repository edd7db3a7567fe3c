import Domain
import PostgresNIO

extension UserRecord {
    /// The user of a PostgreSQL row of ``columns``, in that order.
    static func user(from row: PostgresRow) throws -> User {
        let (id, name, rawEmail, joinedAt, isActive, subscription) = try row.decode((String, String, String, Int64, Bool, Int64?).self)
        guard let email = EmailAddress(rawEmail) else {
            throw StoreError.unmappable(table: "users", column: "email", value: rawEmail)
        }
        return User(
            id: UserID(id), name: name, email: email, joinedAt: Timestamp(millisecondsSinceEpoch: joinedAt), isActive: isActive,
            subscriptionActiveUntil: subscription.map(Timestamp.init(millisecondsSinceEpoch:))
        )
    }
}

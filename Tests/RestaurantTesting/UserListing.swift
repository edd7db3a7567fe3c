import Domain
import Persistence

/// A user repository that can also list every user it holds, so a test can audit a store. Every
/// store's user repository can; the use cases never need to, so Domain does not ask for it.
public protocol UserListing: UserRepository {
    /// Every stored user.
    func allUsers() async throws -> [User]
}

extension InMemoryUserRepository: UserListing {}
extension SQLiteUserRepository: UserListing {}
extension PostgresUserRepository: UserListing {}

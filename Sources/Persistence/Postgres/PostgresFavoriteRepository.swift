import Domain
import PostgresNIO

/// Favorites in PostgreSQL. Saving counts the user's favorites and inserts the new one in one
/// transaction that first locks the user's row (`SELECT … FOR NO KEY UPDATE`): two saves for
/// one user, on any instances, take turns, so the cap is exact. (The lock does not block other
/// users, nor rows that merely reference the user, such as their orders.)
///
/// A struct: it holds no state of its own.
public struct PostgresFavoriteRepository: FavoriteRepository {
    /// None: every read waits for the database.
    public var heldReads: Set<RepositoryRead> { [] }

    private let store: PostgresStore

    /// Favorites of `store`.
    public init(store: PostgresStore) {
        self.store = store
    }

    /// Adds the favorite unless present or the user has `limit` already; returns once committed.
    public func add(_ favorite: Favorite, limit: Int, claim: IdempotencyClaim?) async throws -> FavoriteAddOutcome {
        try await store.write(claim: claim) { connection, logger in
            let userId = favorite.userId.rawValue, restaurantId = favorite.restaurantId.rawValue
            try await connection.run("SELECT 1 FROM users WHERE id = \(userId) FOR NO KEY UPDATE", logger)
            let (count, saved) = try await connection.row(
                "SELECT count(*)::bigint, coalesce(bool_or(restaurant_id = \(restaurantId)), false) FROM favorites WHERE user_id = \(userId)",
                logger
            ) { try $0.decode((Int, Bool).self) } ?? (0, false)
            if saved { return (.alreadySaved(count: count), .unchanged(.favoriteCount(count))) }
            guard count < limit else { return (.limitReached(count: count), nil) }
            try await connection.run(Self.insert.query(FavoriteRecord(favorite)), logger)
            let event = DomainEvent.favoriteSaved(userId: favorite.userId, restaurantId: favorite.restaurantId, favoriteCount: count + 1)
            return (.added(count: count + 1), .changed(.favoriteCount(count + 1), event))
        }
    }

    /// Removes the favorite if present; returns the count afterwards, once committed.
    public func remove(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim?) async throws -> Int {
        try await store.write(claim: claim) { connection, logger in
            try await connection.run("SELECT 1 FROM users WHERE id = \(userId.rawValue) FOR NO KEY UPDATE", logger)
            let removed = try await connection.rows(
                "DELETE FROM favorites WHERE user_id = \(userId.rawValue) AND restaurant_id = \(restaurantId.rawValue) RETURNING 1", logger
            ).count
            let count = try await connection.row("SELECT count(*)::bigint FROM favorites WHERE user_id = \(userId.rawValue)", logger) {
                try $0.decode(Int.self)
            } ?? 0
            guard removed == 1 else { return (count, .unchanged(.favoriteCount(count))) }
            return (count, .changed(.favoriteCount(count), .favoriteRemoved(userId: userId, restaurantId: restaurantId, favoriteCount: count)))
        }
    }

    /// The user's favorites, newest saved first (equal times: the later save first).
    public func favorites(of userId: UserID) async throws -> [Favorite] {
        try await store.read { connection, logger in
            try await connection.rows(
                "SELECT \(unescaped: FavoriteRecord.postgresSelection) FROM favorites WHERE user_id = \(userId.rawValue) ORDER BY saved_at DESC, number DESC",
                logger
            ) { try FavoriteRecord($0).favorite() }
        }
    }

    /// SaveFavoriteRestaurant's new row.
    private static let insert = PostgresStatement<FavoriteRecord> { s in s.insert { $0 } }

    /// Whether the user saved the restaurant.
    public func contains(userId: UserID, restaurantId: RestaurantID) async throws -> Bool {
        try await store.read { connection, logger in
            try await !connection.rows(SelectFavorite.self, logger) { bindings in
                bindings.append(userId.rawValue)
                bindings.append(restaurantId.rawValue)
            }.isEmpty
        }
    }
}

/// Whether a user saved a restaurant (GetRestaurant with a user).
private enum SelectFavorite: PreparedSQL {
    static let name = "svc_select_favorite"
    static let sql = "SELECT 1 FROM favorites WHERE user_id = $1 AND restaurant_id = $2"
}

import Domain
import GRDB

/// Favorites in SQLite. The cap is counted and the row inserted in one write transaction, which
/// holds SQLite's write lock: no other connection or process can add a favorite in between.
public actor SQLiteFavoriteRepository: FavoriteRepository {
    private let store: SQLiteStore

    /// Favorites of `store`.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Adds the favorite unless present or the user has `limit` already; returns once durable.
    public func add(_ favorite: Favorite, limit: Int, claim: IdempotencyClaim?) async throws -> FavoriteAddOutcome {
        try await store.write(boundTo: claim) { db in
            let count = try db.integer("SELECT count(*) FROM favorites WHERE user_id = ?", [favorite.userId.rawValue])
            if try db.row("SELECT 1 FROM favorites WHERE user_id = ? AND restaurant_id = ?", [favorite.userId.rawValue, favorite.restaurantId.rawValue]) != nil {
                return (.alreadySaved(count: count), .favoriteCount(count))
            }
            guard count < limit else { return (.limitReached(count: count), nil) }
            try db.run("INSERT INTO favorites (\(FavoriteRecord.columns)) VALUES (?, ?, ?)", FavoriteRecord.arguments(favorite))
            return (.added(count: count + 1), .favoriteCount(count + 1))
        }
    }

    /// Removes the favorite if present; returns the count afterwards, once durable.
    public func remove(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim?) async throws -> Int {
        try await store.write(boundTo: claim) { db in
            try db.run("DELETE FROM favorites WHERE user_id = ? AND restaurant_id = ?", [userId.rawValue, restaurantId.rawValue])
            let count = try db.integer("SELECT count(*) FROM favorites WHERE user_id = ?", [userId.rawValue])
            return (count, .favoriteCount(count))
        }
    }

    /// The user's favorites, newest saved first (equal times: the later save first).
    public func favorites(of userId: UserID) async throws -> [Favorite] {
        try await store.read { db in
            try db.rows(
                "SELECT \(FavoriteRecord.columns) FROM favorites WHERE user_id = ? ORDER BY saved_at DESC, number DESC",
                [userId.rawValue]
            ).map(FavoriteRecord.favorite)
        }
    }

    /// Whether the user saved the restaurant.
    public func contains(userId: UserID, restaurantId: RestaurantID) async throws -> Bool {
        try await store.read { db in
            try db.row("SELECT 1 FROM favorites WHERE user_id = ? AND restaurant_id = ?", [userId.rawValue, restaurantId.rawValue]) != nil
        }
    }
}

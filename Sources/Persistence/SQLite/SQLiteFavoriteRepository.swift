import Domain
import GRDB
import Synchronization

/// Favorites in SQLite, with which restaurants each user saved also held by this actor, so the
/// favourite check of every GetRestaurant with a user never waits for the database.
///
/// The cap is counted and the row inserted in one write transaction, which holds SQLite's write
/// lock: no other connection can add a favorite in between. Each write also reads the user's
/// saved restaurants back inside its transaction and stamps them with a number drawn inside that
/// transaction; transactions run one at a time on GRDB's writer, so the numbers follow commit
/// order. The held copy of a user is replaced only by a higher number, so the results of
/// concurrent saves and removes, arriving in any order, leave it as the database has it.
/// (svcd holds a lock on its data directory, so no other process writes this store.)
public actor SQLiteFavoriteRepository: FavoriteRepository {
    private let store: SQLiteStore
    private var held: [UserID: Saved]
    /// Draws the numbers of ``Saved``, inside write transactions only.
    private let stamps = Mutex(0)

    /// The restaurants a user saved, as one write transaction left them.
    private struct Saved: Sendable {
        let restaurants: Set<RestaurantID>
        let stamp: Int
    }

    /// Favorites of `store`, loading which restaurant every user saved into memory first.
    public init(store: SQLiteStore) async throws {
        self.store = store
        held = try await store.read { db in
            var saved: [UserID: Set<RestaurantID>] = [:]
            let cursor = try Row.fetchCursor(db, sql: "SELECT user_id, restaurant_id FROM favorites")
            while let row = try cursor.next() {
                saved[UserID(try row.decode(forColumn: "user_id")), default: []].insert(RestaurantID(try row.decode(forColumn: "restaurant_id")))
            }
            return saved.mapValues { Saved(restaurants: $0, stamp: 0) }
        }
    }

    /// Adds the favorite unless present or the user has `limit` already; returns once durable.
    public func add(_ favorite: Favorite, limit: Int, claim: IdempotencyClaim?) async throws -> FavoriteAddOutcome {
        let (outcome, saved) = try await store.write(boundTo: claim) { db in
            let count = try db.integer("SELECT count(*) FROM favorites WHERE user_id = ?", [favorite.userId.rawValue])
            if try db.row("SELECT 1 FROM favorites WHERE user_id = ? AND restaurant_id = ?", [favorite.userId.rawValue, favorite.restaurantId.rawValue]) != nil {
                return ((FavoriteAddOutcome.alreadySaved(count: count), Saved?.none), .favoriteCount(count))
            }
            guard count < limit else { return ((.limitReached(count: count), nil), nil) }
            try db.run("INSERT INTO favorites (\(FavoriteRecord.columns)) VALUES (?, ?, ?)", FavoriteRecord.arguments(favorite))
            return ((.added(count: count + 1), try self.saved(by: favorite.userId, db)), .favoriteCount(count + 1))
        }
        if let saved { remember(saved, of: favorite.userId) }
        return outcome
    }

    /// Removes the favorite if present; returns the count afterwards, once durable.
    public func remove(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim?) async throws -> Int {
        let (count, saved) = try await store.write(boundTo: claim) { db in
            try db.run("DELETE FROM favorites WHERE user_id = ? AND restaurant_id = ?", [userId.rawValue, restaurantId.rawValue])
            let saved = try self.saved(by: userId, db)
            return ((saved.restaurants.count, saved), .favoriteCount(saved.restaurants.count))
        }
        remember(saved, of: userId)
        return count
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

    /// Whether the user saved the restaurant, from the held copy.
    public func contains(userId: UserID, restaurantId: RestaurantID) async throws -> Bool {
        held[userId]?.restaurants.contains(restaurantId) ?? false
    }

    /// Inside a write transaction: the user's saved restaurants now, stamped in commit order.
    private nonisolated func saved(by userId: UserID, _ db: Database) throws -> Saved {
        let ids = try String.fetchAll(db, sql: "SELECT restaurant_id FROM favorites WHERE user_id = ?", arguments: [userId.rawValue])
        return Saved(restaurants: Set(ids.map(RestaurantID.init)), stamp: stamps.withLock { stamp in
            stamp += 1
            return stamp
        })
    }

    private func remember(_ saved: Saved, of userId: UserID) {
        if let current = held[userId], current.stamp >= saved.stamp { return }
        held[userId] = saved
    }
}

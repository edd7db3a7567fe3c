import Domain
import GRDB
import Synchronization

/// Favorites in SQLite, with which restaurants each user saved also held in memory, so the
/// favourite check of every GetRestaurant with a user never waits for the database.
///
/// The cap is counted and the row inserted in one write transaction, which holds SQLite's write
/// lock: no other connection can add a favorite in between. The held copy is changed by each
/// write's `committed` step, which the group committer runs right after the commit, one write at
/// a time in commit order, before the write's caller resumes; so concurrent saves and removes
/// leave it as the database has it, and a read after an `ok` sees the write. Because those steps
/// run on GRDB's writer queue, the copy is behind a lock of its own (a class holding a `Mutex`,
/// not an actor: nothing here needs an actor's queue), and every method is
/// `nonisolated(nonsending)`: a call runs on its caller's executor without a switch to another
/// executor and back. (svcd holds a lock on its data directory,
/// so no other process writes this store.)
public final class SQLiteFavoriteRepository: FavoriteRepository {
    /// What it answers from memory: the reads served from the copy it holds.
    public var heldReads: Set<RepositoryRead> { [.favoriteCheck] }

    private let store: SQLiteStore
    /// The restaurants each user saved, as of the last commit.
    private let held: Mutex<[UserID: Set<RestaurantID>]>

    /// Favorites of `store`, loading which restaurant every user saved into memory first.
    public init(store: SQLiteStore) async throws {
        self.store = store
        held = Mutex(try await store.read { db in
            var saved: [UserID: Set<RestaurantID>] = [:]
            let cursor = try FavoriteRecord.fetchCursor(db, sql: "SELECT \(FavoriteRecord.selection) FROM favorites")
            while let record = try cursor.next() {
                saved[UserID(record.userId), default: []].insert(RestaurantID(record.restaurantId))
            }
            return saved
        })
    }

    /// Adds the favorite unless present or the user has `limit` already; returns once durable.
    public nonisolated(nonsending) func add(_ favorite: Favorite, limit: Int, claim: IdempotencyClaim?) async throws -> FavoriteAddOutcome {
        let record = FavoriteRecord(favorite)
        return try await store.write(boundTo: claim, { db in
            let count = try db.integer("SELECT count(*) FROM favorites WHERE user_id = ?", [favorite.userId.rawValue])
            if try db.row("SELECT 1 FROM favorites WHERE user_id = ? AND restaurant_id = ?", [favorite.userId.rawValue, favorite.restaurantId.rawValue]) != nil {
                return (.alreadySaved(count: count), .unchanged(.favoriteCount(count)))
            }
            guard count < limit else { return (.limitReached(count: count), nil) }
            try db.insert(record)
            let saved = DomainEvent.favoriteSaved(userId: favorite.userId, restaurantId: favorite.restaurantId, favoriteCount: count + 1)
            return (.added(count: count + 1), .changed(.favoriteCount(count + 1), saved))
        }, committed: { outcome in
            guard case .added = outcome else { return }
            self.held.withLock { _ = $0[favorite.userId, default: []].insert(favorite.restaurantId) }
        })
    }

    /// Removes the favorite if present; returns the count afterwards, once durable.
    public nonisolated(nonsending) func remove(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim?) async throws -> Int {
        try await store.write(boundTo: claim, { db in
            try db.run("DELETE FROM favorites WHERE user_id = ? AND restaurant_id = ?", [userId.rawValue, restaurantId.rawValue])
            let removed = db.changesCount == 1
            let count = try db.integer("SELECT count(*) FROM favorites WHERE user_id = ?", [userId.rawValue])
            guard removed else { return (count, .unchanged(.favoriteCount(count))) }
            return (count, .changed(.favoriteCount(count), .favoriteRemoved(userId: userId, restaurantId: restaurantId, favoriteCount: count)))
        }, committed: { _ in
            self.held.withLock { _ = $0[userId]?.remove(restaurantId) }
        })
    }

    /// The user's favorites, newest saved first (equal times: the later save first).
    public nonisolated(nonsending) func favorites(of userId: UserID) async throws -> [Favorite] {
        try await store.read { db in
            try db.records(
                FavoriteRecord.self, "SELECT \(FavoriteRecord.selection) FROM favorites WHERE user_id = ? ORDER BY saved_at DESC, number DESC",
                [userId.rawValue]
            ).map { $0.favorite() }
        }
    }

    /// Whether the user saved the restaurant, from the held copy, on the caller's executor.
    public nonisolated(nonsending) func contains(userId: UserID, restaurantId: RestaurantID) async throws -> Bool {
        held.withLock { $0[userId]?.contains(restaurantId) ?? false }
    }
}

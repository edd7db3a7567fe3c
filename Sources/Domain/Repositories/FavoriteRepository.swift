/// Stores users' favorite restaurants. The per-user cap is checked and the favorite written in
/// one atomic step; the cap itself is the caller's (the use case's) rule.
public protocol FavoriteRepository: Sendable {
    /// Which of its reads (favoriteCheck and favoritesOfUser) it answers from what it holds in
    /// memory, without waiting for a database: the transport answers a use case whose reads are all
    /// held on the thread that received it.
    var heldReads: Set<RepositoryRead> { get }
    /// Adds the favorite unless it exists already or the user already has `limit` favorites.
    /// Binds `claim` to the outcome's count in the same step unless the cap refused it.
    func add(_ favorite: Favorite, limit: Int, claim: IdempotencyClaim?) async throws -> FavoriteAddOutcome
    /// Removes the favorite if present; returns the user's favorite count afterwards. Binds
    /// `claim` to that count in the same step.
    func remove(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim?) async throws -> Int
    /// The user's favorites, newest saved first.
    func favorites(of userId: UserID) async throws -> [Favorite]
    /// Whether the user saved the restaurant.
    func contains(userId: UserID, restaurantId: RestaurantID) async throws -> Bool
}

/// What an atomic favorite save did.
public enum FavoriteAddOutcome: Sendable, Hashable {
    /// Stored; the user now has `count` favorites.
    case added(count: Int)
    /// It was a favorite already; nothing changed.
    case alreadySaved(count: Int)
    /// Refused: the user has `count` ≥ limit favorites.
    case limitReached(count: Int)
}

extension FavoriteRepository {
    /// ``add(_:limit:claim:)`` without an idempotency key.
    public func add(_ favorite: Favorite, limit: Int) async throws -> FavoriteAddOutcome {
        try await add(favorite, limit: limit, claim: nil)
    }

    /// ``remove(userId:restaurantId:claim:)`` without an idempotency key.
    public func remove(userId: UserID, restaurantId: RestaurantID) async throws -> Int {
        try await remove(userId: userId, restaurantId: restaurantId, claim: nil)
    }
}

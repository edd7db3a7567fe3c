import Domain

/// Favorites held in memory. The cap check and the insert happen in one actor step.
public actor InMemoryFavoriteRepository: FavoriteRepository {
    /// What it answers from memory: every read of it (it holds everything).
    public nonisolated var heldReads: Set<RepositoryRead> { [.favoriteCheck, .favoritesOfUser] }

    // Per user, newest saved first.
    private var favoritesByUser: [UserID: [Favorite]] = [:]

    private let idempotency: InMemoryIdempotencyRepository

    /// An empty repository, binding idempotency keys in `idempotency` (share one ledger among the
    /// repositories of one store).
    public init(idempotency: InMemoryIdempotencyRepository = InMemoryIdempotencyRepository()) {
        self.idempotency = idempotency
    }

    /// Adds the favorite unless present or the user has `limit` favorites already.
    public func add(_ favorite: Favorite, limit: Int, claim: IdempotencyClaim?) throws -> FavoriteAddOutcome {
        try idempotency.perform(claim) {
            var favorites = favoritesByUser[favorite.userId, default: []]
            if favorites.contains(where: { $0.restaurantId == favorite.restaurantId }) {
                return (.alreadySaved(count: favorites.count), .unchanged(.favoriteCount(favorites.count)))
            }
            guard favorites.count < limit else { return (.limitReached(count: favorites.count), nil) }
            let position = favorites.firstIndex { $0.savedAt <= favorite.savedAt } ?? favorites.endIndex
            favorites.insert(favorite, at: position)
            favoritesByUser[favorite.userId] = favorites
            let saved = DomainEvent.favoriteSaved(userId: favorite.userId, restaurantId: favorite.restaurantId, favoriteCount: favorites.count)
            return (.added(count: favorites.count), .changed(.favoriteCount(favorites.count), saved))
        }
    }

    /// Removes the favorite if present; returns the count afterwards.
    public func remove(userId: UserID, restaurantId: RestaurantID, claim: IdempotencyClaim?) throws -> Int {
        try idempotency.perform(claim) {
            let before = favoritesByUser[userId, default: []].count
            favoritesByUser[userId, default: []].removeAll { $0.restaurantId == restaurantId }
            let count = favoritesByUser[userId, default: []].count
            guard count < before else { return (count, .unchanged(.favoriteCount(count))) }
            return (count, .changed(.favoriteCount(count), .favoriteRemoved(userId: userId, restaurantId: restaurantId, favoriteCount: count)))
        }
    }

    /// The user's favorites, newest saved first.
    public func favorites(of userId: UserID) -> [Favorite] {
        favoritesByUser[userId, default: []]
    }

    /// Whether the user saved the restaurant.
    public func contains(userId: UserID, restaurantId: RestaurantID) -> Bool {
        favoritesByUser[userId, default: []].contains { $0.restaurantId == restaurantId }
    }
}

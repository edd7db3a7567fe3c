import Domain

/// Favorites held in memory. The cap check and the insert happen in one actor step.
public actor InMemoryFavoriteRepository: FavoriteRepository {
    // Per user, newest saved first.
    private var favoritesByUser: [UserID: [Favorite]] = [:]

    /// An empty repository.
    public init() {}

    /// Adds the favorite unless present or the user has `limit` favorites already.
    public func add(_ favorite: Favorite, limit: Int) -> FavoriteAddOutcome {
        var favorites = favoritesByUser[favorite.userId, default: []]
        if favorites.contains(where: { $0.restaurantId == favorite.restaurantId }) {
            return .alreadySaved(count: favorites.count)
        }
        guard favorites.count < limit else { return .limitReached(count: favorites.count) }
        let position = favorites.firstIndex { $0.savedAt <= favorite.savedAt } ?? favorites.endIndex
        favorites.insert(favorite, at: position)
        favoritesByUser[favorite.userId] = favorites
        return .added(count: favorites.count)
    }

    /// Removes the favorite if present; returns the count afterwards.
    public func remove(userId: UserID, restaurantId: RestaurantID) -> Int {
        favoritesByUser[userId, default: []].removeAll { $0.restaurantId == restaurantId }
        return favoritesByUser[userId, default: []].count
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

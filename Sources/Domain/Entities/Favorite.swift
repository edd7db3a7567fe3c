/// A restaurant a user saved, and when.
public struct Favorite: Sendable, Hashable {
    /// The user who saved it.
    public let userId: UserID
    /// The saved restaurant.
    public let restaurantId: RestaurantID
    /// When it was first saved (saving again does not move it).
    public let savedAt: Timestamp

    /// Creates a favorite value.
    public init(userId: UserID, restaurantId: RestaurantID, savedAt: Timestamp) {
        self.userId = userId
        self.restaurantId = restaurantId
        self.savedAt = savedAt
    }

    /// The most favorites one user may have.
    public static let maximumPerUser = 100
}

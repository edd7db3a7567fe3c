/// A user's review of a restaurant. A user may review the same restaurant several times.
public struct Review: Sendable, Hashable, Identifiable {
    /// The review's id.
    public let id: ReviewID
    /// The reviewed restaurant.
    public let restaurantId: RestaurantID
    /// The author.
    public let userId: UserID
    /// Stars, 1…5.
    public let rating: Int
    /// Free text, at most 2000 characters (may be empty).
    public let text: String
    /// When the review was written.
    public let createdAt: Timestamp

    /// Creates a review value.
    public init(id: ReviewID, restaurantId: RestaurantID, userId: UserID, rating: Int, text: String, createdAt: Timestamp) {
        self.id = id
        self.restaurantId = restaurantId
        self.userId = userId
        self.rating = rating
        self.text = text
        self.createdAt = createdAt
    }

    /// Valid star ratings.
    public static let ratings = 1...5
    /// The longest review text, in characters.
    public static let maximumTextLength = 2000
    /// A review is recent while younger than this many days.
    public static let recentDays = 30

    /// Reviews created after this moment are recent at `now`.
    public static func recencyThreshold(at now: Timestamp) -> Timestamp {
        now.adding(days: -recentDays)
    }

    /// Whether the review is younger than 30 days at `now`.
    public func isRecent(at now: Timestamp) -> Bool {
        createdAt > Review.recencyThreshold(at: now)
    }
}

/// A review as returned by AddReview and GetReviews.
import WireContract
public struct Review: Sendable, Hashable {
    /// The review's id.
    public var id: String
    /// The reviewed restaurant.
    public var restaurantId: String
    /// The author.
    public var userId: String
    /// 1…5.
    public var rating: Int
    /// The text as sent (may be empty).
    public var text: String
    /// Creation time (ISO-8601 UTC string).
    public var createdAt: String

    /// Creates a value (e.g. for test doubles); the client decodes replies itself.
    public init(id: String, restaurantId: String, userId: String, rating: Int, text: String, createdAt: String) {
        self.id = id
        self.restaurantId = restaurantId
        self.userId = userId
        self.rating = rating
        self.text = text
        self.createdAt = createdAt
    }

    init(_ f: Fields) throws(RestaurantClientError) {
        id = try f.string(WireMember.id.name)
        restaurantId = try f.string(WireMember.restaurantId.name)
        userId = try f.string(WireMember.userId.name)
        rating = try f.int(WireMember.rating.name)
        text = try f.string(WireMember.text.name)
        createdAt = try f.string(WireMember.createdAt.name)
    }
}

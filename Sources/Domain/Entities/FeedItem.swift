/// One entry of the discovery feed: a restaurant, newest first.
public struct FeedItem: Sendable, Hashable, Identifiable {
    /// The restaurant's id.
    public let id: RestaurantID
    /// The restaurant's name.
    public let title: String
    /// The restaurant's picture.
    public let imageUrl: String?

    /// The feed entry for a restaurant.
    public init(restaurant: Restaurant) {
        self.id = restaurant.id
        self.title = restaurant.name
        self.imageUrl = restaurant.imageUrl
    }
}

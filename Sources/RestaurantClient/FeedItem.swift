/// An entry of the discovery feed (LoadFeed): a restaurant, newest created first.
import WireContract
public struct FeedItem: Sendable, Hashable {
    /// The restaurant's id.
    public var id: String
    /// The restaurant's name.
    public var title: String
    /// The restaurant's picture, if any.
    public var imageUrl: String?

    /// Creates a value (e.g. for test doubles); the client decodes replies itself.
    public init(id: String, title: String, imageUrl: String?) {
        self.id = id
        self.title = title
        self.imageUrl = imageUrl
    }

    init(_ f: Fields) throws(RestaurantClientError) {
        id = try f.string(WireMember.id.name)
        title = try f.string(WireMember.title.name)
        imageUrl = try f.optionalString(WireMember.imageUrl.name)
    }
}

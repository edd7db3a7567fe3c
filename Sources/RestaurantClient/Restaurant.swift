/// A restaurant as returned by CreateRestaurant, GetRestaurant, ListRestaurants,
import WireContract
/// SearchRestaurants and GetFavoriteRestaurants.
public struct Restaurant: Sendable, Hashable {
    /// The restaurant's id.
    public var id: String
    /// The name.
    public var name: String
    /// The cuisine, as given at creation.
    public var cuisine: String
    /// Exact mean of all review ratings, 0…5 (`0` without reviews).
    public var rating: Double
    /// Number of reviews.
    public var reviewCount: Int
    /// 1 (cheap) … 4 (expensive).
    public var priceLevel: Int
    /// Street address.
    public var address: String
    /// Latitude, −90…90.
    public var latitude: Double
    /// Longitude, −180…180.
    public var longitude: Double
    /// Picture URL, if any.
    public var imageUrl: String?
    /// Phone number, if any.
    public var phoneNumber: String?
    /// Web site, if any.
    public var website: String?
    /// Free-form opening-hours lines (`[]` when none).
    public var openingHours: [String]
    /// Whether the given user saved it; only set by GetRestaurant called with a `userId`.
    public var isFavorite: Bool?

    /// Creates a value (e.g. for test doubles); the client decodes replies itself.
    public init(id: String, name: String, cuisine: String, rating: Double, reviewCount: Int, priceLevel: Int, address: String, latitude: Double, longitude: Double, imageUrl: String? = nil, phoneNumber: String? = nil, website: String? = nil, openingHours: [String] = [], isFavorite: Bool? = nil) {
        self.id = id
        self.name = name
        self.cuisine = cuisine
        self.rating = rating
        self.reviewCount = reviewCount
        self.priceLevel = priceLevel
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.imageUrl = imageUrl
        self.phoneNumber = phoneNumber
        self.website = website
        self.openingHours = openingHours
        self.isFavorite = isFavorite
    }

    init(_ f: Fields) throws(RestaurantClientError) {
        id = try f.string(WireMember.id.name)
        name = try f.string(WireMember.name.name)
        cuisine = try f.string(WireMember.cuisine.name)
        rating = try f.double(WireMember.rating.name)
        reviewCount = try f.int(WireMember.reviewCount.name)
        priceLevel = try f.int(WireMember.priceLevel.name)
        address = try f.string(WireMember.address.name)
        latitude = try f.double(WireMember.latitude.name)
        longitude = try f.double(WireMember.longitude.name)
        imageUrl = try f.optionalString(WireMember.imageUrl.name)
        phoneNumber = try f.optionalString(WireMember.phoneNumber.name)
        website = try f.optionalString(WireMember.website.name)
        openingHours = try f.strings(WireMember.openingHours.name)
        isFavorite = try f.optionalBool(WireMember.isFavorite.name)
    }
}

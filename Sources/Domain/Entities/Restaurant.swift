/// A restaurant listed on the platform, with the running totals of its reviews.
public struct Restaurant: Sendable, Hashable, Identifiable {
    // The fields live in one immutable object: a copy of a restaurant (it passes through every
    // layer of a read, and a store keeps it in memory) is one reference, not eight strings'
    // references and 180 bytes, and two copies of one value compare equal at once.
    private final class Fields: Sendable {
        let id: RestaurantID
        let name: String
        let cuisine: String
        let priceLevel: Int
        let address: String
        let latitude: Double
        let longitude: Double
        let imageUrl: String?
        let phoneNumber: String?
        let website: String?
        let openingHours: [String]
        let ratingTotal: Int
        let reviewCount: Int
        let createdAt: Timestamp
        /// ``Restaurant/isValid``, decided once: every read of a restaurant asks it.
        let isValid: Bool

        init(
            id: RestaurantID, name: String, cuisine: String, priceLevel: Int, address: String,
            latitude: Double, longitude: Double, imageUrl: String?, phoneNumber: String?,
            website: String?, openingHours: [String], ratingTotal: Int, reviewCount: Int,
            createdAt: Timestamp
        ) {
            self.id = id
            self.name = name
            self.cuisine = cuisine
            self.priceLevel = priceLevel
            self.address = address
            self.latitude = latitude
            self.longitude = longitude
            self.imageUrl = imageUrl
            self.phoneNumber = phoneNumber
            self.website = website
            self.openingHours = openingHours
            self.ratingTotal = ratingTotal
            self.reviewCount = reviewCount
            self.createdAt = createdAt
            let rating = Restaurant.rating(total: ratingTotal, count: reviewCount)
            isValid = name.hasNonWhitespace && address.hasNonWhitespace
                && Restaurant.priceLevels.contains(priceLevel)
                && Restaurant.latitudes.contains(latitude) && Restaurant.longitudes.contains(longitude)
                && Restaurant.ratings.contains(rating)
        }
    }

    private let fields: Fields

    /// The restaurant's id.
    public var id: RestaurantID { fields.id }
    /// Name, 1…100 characters.
    public var name: String { fields.name }
    /// Cuisine, 1…100 characters, matched case-insensitively.
    public var cuisine: String { fields.cuisine }
    /// Price level 1 (cheap) … 4 (expensive).
    public var priceLevel: Int { fields.priceLevel }
    /// Street address.
    public var address: String { fields.address }
    /// Latitude in degrees, −90…90.
    public var latitude: Double { fields.latitude }
    /// Longitude in degrees, −180…180.
    public var longitude: Double { fields.longitude }
    /// Picture for listings and the feed.
    public var imageUrl: String? { fields.imageUrl }
    /// Contact phone number.
    public var phoneNumber: String? { fields.phoneNumber }
    /// Web site.
    public var website: String? { fields.website }
    /// Opening hours as free-form lines, e.g. "Mon-Fri 11:00-22:00".
    public var openingHours: [String] { fields.openingHours }
    /// Sum of the ratings of all reviews; the rating is this divided by `reviewCount`.
    public var ratingTotal: Int { fields.ratingTotal }
    /// Number of reviews.
    public var reviewCount: Int { fields.reviewCount }
    /// When the restaurant was created (orders the feed).
    public var createdAt: Timestamp { fields.createdAt }

    /// Creates a restaurant value.
    public init(
        id: RestaurantID, name: String, cuisine: String, priceLevel: Int, address: String,
        latitude: Double, longitude: Double, imageUrl: String? = nil, phoneNumber: String? = nil,
        website: String? = nil, openingHours: [String] = [], ratingTotal: Int = 0, reviewCount: Int = 0,
        createdAt: Timestamp
    ) {
        fields = Fields(
            id: id, name: name, cuisine: cuisine, priceLevel: priceLevel, address: address,
            latitude: latitude, longitude: longitude, imageUrl: imageUrl, phoneNumber: phoneNumber,
            website: website, openingHours: openingHours, ratingTotal: ratingTotal, reviewCount: reviewCount,
            createdAt: createdAt
        )
    }

    /// Whether every field is equal.
    public static func == (lhs: Restaurant, rhs: Restaurant) -> Bool {
        if lhs.fields === rhs.fields { return true }
        return lhs.id == rhs.id
            && lhs.name == rhs.name
            && lhs.cuisine == rhs.cuisine
            && lhs.priceLevel == rhs.priceLevel
            && lhs.address == rhs.address
            && lhs.latitude == rhs.latitude
            && lhs.longitude == rhs.longitude
            && lhs.imageUrl == rhs.imageUrl
            && lhs.phoneNumber == rhs.phoneNumber
            && lhs.website == rhs.website
            && lhs.openingHours == rhs.openingHours
            && lhs.ratingTotal == rhs.ratingTotal
            && lhs.reviewCount == rhs.reviewCount
            && lhs.createdAt == rhs.createdAt
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(cuisine)
        hasher.combine(priceLevel)
        hasher.combine(address)
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(imageUrl)
        hasher.combine(phoneNumber)
        hasher.combine(website)
        hasher.combine(openingHours)
        hasher.combine(ratingTotal)
        hasher.combine(reviewCount)
        hasher.combine(createdAt)
    }

    /// Valid price levels.
    public static let priceLevels = 1...4
    /// Valid latitudes.
    public static let latitudes: ClosedRange<Double> = -90...90
    /// Valid longitudes.
    public static let longitudes: ClosedRange<Double> = -180...180
    /// Valid ratings.
    public static let ratings: ClosedRange<Double> = 0...5

    /// The mean of all review ratings, 0 when there are none.
    public var rating: Double {
        Self.rating(total: ratingTotal, count: reviewCount)
    }

    /// The mean of `count` ratings that sum to `total`, 0 when there are none.
    private static func rating(total: Int, count: Int) -> Double {
        count == 0 ? 0 : Double(total) / Double(count)
    }

    /// A restaurant may be listed only when it is valid: non-blank name and address, price
    /// level 1…4, coordinates in range, rating 0…5.
    public var isValid: Bool { fields.isValid }

    /// The rating rounded half up to one decimal, e.g. "4.3", as people see it.
    public var displayRating: String {
        let tenths = Int((rating * 10).rounded(.toNearestOrAwayFromZero))
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The price level as dollar signs, e.g. "$$".
    public var displayPrice: String {
        String(repeating: "$", count: max(0, min(priceLevel, Restaurant.priceLevels.upperBound)))
    }

    /// A rating of at least 4.5 from at least one review.
    public var isHighlyRated: Bool {
        reviewCount > 0 && rating >= 4.5
    }

    /// The restaurant after one more review with `rating`.
    public func addingReview(rating: Int) -> Restaurant {
        Restaurant(
            id: id, name: name, cuisine: cuisine, priceLevel: priceLevel, address: address,
            latitude: latitude, longitude: longitude, imageUrl: imageUrl, phoneNumber: phoneNumber,
            website: website, openingHours: openingHours, ratingTotal: ratingTotal + rating,
            reviewCount: reviewCount + 1, createdAt: createdAt
        )
    }
}

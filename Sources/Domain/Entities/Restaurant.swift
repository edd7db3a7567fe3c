/// A restaurant listed on the platform, with the running totals of its reviews.
public struct Restaurant: Sendable, Hashable, Identifiable {
    /// The restaurant's id.
    public let id: RestaurantID
    /// Name, 1…100 characters.
    public let name: String
    /// Cuisine, 1…100 characters, matched case-insensitively.
    public let cuisine: String
    /// Price level 1 (cheap) … 4 (expensive).
    public let priceLevel: Int
    /// Street address.
    public let address: String
    /// Latitude in degrees, −90…90.
    public let latitude: Double
    /// Longitude in degrees, −180…180.
    public let longitude: Double
    /// Picture for listings and the feed.
    public let imageUrl: String?
    /// Contact phone number.
    public let phoneNumber: String?
    /// Web site.
    public let website: String?
    /// Opening hours as free-form lines, e.g. "Mon-Fri 11:00-22:00".
    public let openingHours: [String]
    /// Sum of the ratings of all reviews; the rating is this divided by `reviewCount`.
    public let ratingTotal: Int
    /// Number of reviews.
    public let reviewCount: Int
    /// When the restaurant was created (orders the feed).
    public let createdAt: Timestamp

    /// Creates a restaurant value.
    public init(
        id: RestaurantID, name: String, cuisine: String, priceLevel: Int, address: String,
        latitude: Double, longitude: Double, imageUrl: String? = nil, phoneNumber: String? = nil,
        website: String? = nil, openingHours: [String] = [], ratingTotal: Int = 0, reviewCount: Int = 0,
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
        reviewCount == 0 ? 0 : Double(ratingTotal) / Double(reviewCount)
    }

    /// A restaurant may be listed only when it is valid: non-blank name and address, price
    /// level 1…4, coordinates in range, rating 0…5.
    public var isValid: Bool {
        name.hasNonWhitespace && address.hasNonWhitespace
            && Restaurant.priceLevels.contains(priceLevel)
            && Restaurant.latitudes.contains(latitude) && Restaurant.longitudes.contains(longitude)
            && Restaurant.ratings.contains(rating)
    }

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

/// Lists a new restaurant after checking every field.
public struct CreateRestaurant: Sendable {
    /// What the caller supplies.
    public struct Input: Sendable, Hashable {
        /// Name, 1…100 characters.
        public var name: String
        /// Cuisine, 1…100 characters.
        public var cuisine: String
        /// 1…4.
        public var priceLevel: Int
        /// Street address, 1…200 characters.
        public var address: String
        /// −90…90.
        public var latitude: Double
        /// −180…180.
        public var longitude: Double
        /// Optional picture URL, at most 2048 characters.
        public var imageUrl: String?
        /// Optional phone number, at most 40 characters.
        public var phoneNumber: String?
        /// Optional web site, at most 2048 characters.
        public var website: String?
        /// Optional opening-hours lines: at most 14, each 1…100 characters.
        public var openingHours: [String]?

        /// Creates the input.
        public init(name: String, cuisine: String, priceLevel: Int, address: String, latitude: Double, longitude: Double, imageUrl: String? = nil, phoneNumber: String? = nil, website: String? = nil, openingHours: [String]? = nil) {
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
        }
    }

    /// The longest address, in characters.
    public static let maximumAddressLength = 200
    /// The longest URL, in characters.
    public static let maximumURLLength = 2048
    /// The longest phone number, in characters.
    public static let maximumPhoneLength = 40
    /// The most opening-hours lines.
    public static let maximumOpeningHoursLines = 14

    private let restaurants: any RestaurantRepository
    private let clock: any WallClock
    private let ids: any IdentifierGenerator

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository, clock: any WallClock, ids: any IdentifierGenerator) {
        self.restaurants = restaurants
        self.clock = clock
        self.ids = ids
    }

    /// Refuses any invalid field [invalid_input], naming it; stores and returns the restaurant,
    /// with rating 0 and no reviews.
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(_ input: Input, claim: IdempotencyClaim? = nil) async throws -> Restaurant {
        let hours = input.openingHours ?? []
        guard hours.count <= CreateRestaurant.maximumOpeningHoursLines else {
            throw DomainError.invalidInput(field: "openingHours", reason: "must have at most \(CreateRestaurant.maximumOpeningHoursLines) lines")
        }
        let restaurant = Restaurant(
            id: ids.make(),
            name: try Validate.name(input.name, field: "name"),
            cuisine: try Validate.name(input.cuisine, field: "cuisine"),
            priceLevel: try Validate.integer(input.priceLevel, field: "priceLevel", in: Restaurant.priceLevels),
            address: try Validate.text(input.address, field: "address", maximumLength: CreateRestaurant.maximumAddressLength),
            latitude: try Validate.number(input.latitude, field: "latitude", in: Restaurant.latitudes),
            longitude: try Validate.number(input.longitude, field: "longitude", in: Restaurant.longitudes),
            imageUrl: try Validate.optionalText(input.imageUrl, field: "imageUrl", maximumLength: CreateRestaurant.maximumURLLength),
            phoneNumber: try Validate.optionalText(input.phoneNumber, field: "phoneNumber", maximumLength: CreateRestaurant.maximumPhoneLength),
            website: try Validate.optionalText(input.website, field: "website", maximumLength: CreateRestaurant.maximumURLLength),
            openingHours: try hours.map { line throws(DomainError) in try Validate.text(line, field: "openingHours", maximumLength: 100) },
            createdAt: clock.now()
        )
        // Validation above covers each field; this guards the entity rule itself.
        guard restaurant.isValid else {
            throw DomainError.invalidInput(field: "restaurant", reason: "is not a valid restaurant")
        }
        try await restaurants.insert(restaurant, claim: claim)
        return restaurant
    }
}

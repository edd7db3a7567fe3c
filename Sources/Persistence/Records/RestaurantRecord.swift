import Domain
import Foundation
import GRDB

/// The `restaurants` row of a ``Restaurant``: one property per column, including the listing
/// columns derived from the domain value (`rank_rating`, `listed`, `name_key`, `cuisine_key`).
/// They use the Domain's own definitions (rating, validity, lowercasing), so SQL filters on them
/// agree with ``RestaurantQuery/matches(_:)`` (see ``searchKey(_:)``). SQLite's `number`, the
/// row's integer key, is SQLite's to assign and is never read.
struct RestaurantRecord: Sendable {
    var id: String
    var name: String
    var cuisine: String
    var priceLevel: Int
    var address: String
    var latitude: Double
    var longitude: Double
    var imageUrl: String?
    var phoneNumber: String?
    var website: String?
    var openingHours: [String]
    var ratingTotal: Int
    var reviewCount: Int
    var createdAt: Int64
    /// Minus the rating, so that ascending order is best first.
    var rankRating: Double
    /// The restaurant is valid.
    var listed: Bool
    var nameKey: String
    var cuisineKey: String

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case id, name, cuisine
        case priceLevel = "price_level"
        case address, latitude, longitude
        case imageUrl = "image_url"
        case phoneNumber = "phone_number"
        case website
        case openingHours = "opening_hours"
        case ratingTotal = "rating_total"
        case reviewCount = "review_count"
        case createdAt = "created_at"
        case rankRating = "rank_rating"
        case listed
        case nameKey = "name_key"
        case cuisineKey = "cuisine_key"
    }

    /// The row of `restaurant`, with its derived columns.
    init(_ restaurant: Restaurant) {
        id = restaurant.id.rawValue
        name = restaurant.name
        cuisine = restaurant.cuisine
        priceLevel = restaurant.priceLevel
        address = restaurant.address
        latitude = restaurant.latitude
        longitude = restaurant.longitude
        imageUrl = restaurant.imageUrl
        phoneNumber = restaurant.phoneNumber
        website = restaurant.website
        openingHours = restaurant.openingHours
        ratingTotal = restaurant.ratingTotal
        reviewCount = restaurant.reviewCount
        createdAt = restaurant.createdAt.millisecondsSinceEpoch
        rankRating = -restaurant.rating
        listed = restaurant.isValid
        nameKey = Self.searchKey(restaurant.name)
        cuisineKey = Self.searchKey(restaurant.cuisine)
    }

    /// The restaurant of this row.
    func restaurant() -> Restaurant {
        Restaurant(
            id: RestaurantID(id), name: name, cuisine: cuisine, priceLevel: priceLevel, address: address, latitude: latitude,
            longitude: longitude, imageUrl: imageUrl, phoneNumber: phoneNumber, website: website, openingHours: openingHours,
            ratingTotal: ratingTotal, reviewCount: reviewCount, createdAt: Timestamp(millisecondsSinceEpoch: createdAt)
        )
    }

    /// The `name_key` / `cuisine_key` of a text, and the form a query's text or cuisine takes
    /// to be compared with them: lowercased as the Domain lowercases, then canonically
    /// decomposed (NFD). The Domain compares Characters, under which "é" and "e\u{301}" are
    /// equal; their NFD bytes are equal too, so byte comparison in SQL never misses a match the
    /// Domain would make (equality is exact; substring search may find a few more, which
    /// ``SQLiteRestaurantRepository`` filters out with ``RestaurantQuery/matches(_:)``).
    static func searchKey(_ text: String) -> String {
        text.lowercased().decomposedStringWithCanonicalMapping
    }
}

extension RestaurantRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "restaurants"
    static let selection = columnList()
    static let insertion = insertStatement()

    /// A row whose `opening_hours` is not a JSON array of strings is an error.
    init(row: Row) throws {
        let hours: String = try row.decode(forColumn: Columns.openingHours)
        guard let openingHours = try? JSONDecoder().decode([String].self, from: Data(hours.utf8)) else {
            throw StoreError.unmappable(table: Self.databaseTableName, column: Columns.openingHours.name, value: hours)
        }
        self.openingHours = openingHours
        id = try row.decode(forColumn: Columns.id)
        name = try row.decode(forColumn: Columns.name)
        cuisine = try row.decode(forColumn: Columns.cuisine)
        priceLevel = try row.decode(forColumn: Columns.priceLevel)
        address = try row.decode(forColumn: Columns.address)
        latitude = try row.decode(forColumn: Columns.latitude)
        longitude = try row.decode(forColumn: Columns.longitude)
        imageUrl = try row.decode(forColumn: Columns.imageUrl)
        phoneNumber = try row.decode(forColumn: Columns.phoneNumber)
        website = try row.decode(forColumn: Columns.website)
        ratingTotal = try row.decode(forColumn: Columns.ratingTotal)
        reviewCount = try row.decode(forColumn: Columns.reviewCount)
        createdAt = try row.decode(forColumn: Columns.createdAt)
        rankRating = try row.decode(forColumn: Columns.rankRating)
        listed = try row.decode(forColumn: Columns.listed)
        nameKey = try row.decode(forColumn: Columns.nameKey)
        cuisineKey = try row.decode(forColumn: Columns.cuisineKey)
    }

    /// `opening_hours` is stored as a JSON array of strings.
    func databaseValue(_ column: Columns) throws -> (any DatabaseValueConvertible)? {
        switch column {
        case .id: id
        case .name: name
        case .cuisine: cuisine
        case .priceLevel: priceLevel
        case .address: address
        case .latitude: latitude
        case .longitude: longitude
        case .imageUrl: imageUrl
        case .phoneNumber: phoneNumber
        case .website: website
        case .openingHours: String(decoding: try JSONEncoder().encode(openingHours), as: UTF8.self)
        case .ratingTotal: ratingTotal
        case .reviewCount: reviewCount
        case .createdAt: createdAt
        case .rankRating: rankRating
        case .listed: listed
        case .nameKey: nameKey
        case .cuisineKey: cuisineKey
        }
    }
}

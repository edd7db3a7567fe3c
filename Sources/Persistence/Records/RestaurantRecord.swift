import Domain
import Foundation
import GRDB

/// The `restaurants` row of a ``Restaurant``, both ways, with its derived listing columns.
enum RestaurantRecord {
    static let columns = """
        id, name, cuisine, price_level, address, latitude, longitude, image_url, phone_number, website, \
        opening_hours, rating_total, review_count, created_at
        """
    /// The same columns qualified with the table alias `r`, for joins.
    static let qualifiedColumns = columns.split(separator: ", ").map { "r.\($0)" }.joined(separator: ", ")

    static func restaurant(from row: Row) throws -> Restaurant {
        let hoursJSON: String = try row.decode(forColumn: "opening_hours")
        guard let hours = try? JSONDecoder().decode([String].self, from: Data(hoursJSON.utf8)) else {
            throw StoreError.unmappable(table: "restaurants", column: "opening_hours", value: hoursJSON)
        }
        return Restaurant(
            id: RestaurantID(try row.decode(forColumn: "id")),
            name: try row.decode(forColumn: "name"),
            cuisine: try row.decode(forColumn: "cuisine"),
            priceLevel: try row.decode(forColumn: "price_level"),
            address: try row.decode(forColumn: "address"),
            latitude: try row.decode(forColumn: "latitude"),
            longitude: try row.decode(forColumn: "longitude"),
            imageUrl: try row.decode(forColumn: "image_url"),
            phoneNumber: try row.decode(forColumn: "phone_number"),
            website: try row.decode(forColumn: "website"),
            openingHours: hours,
            ratingTotal: try row.decode(forColumn: "rating_total"),
            reviewCount: try row.decode(forColumn: "review_count"),
            createdAt: Timestamp(millisecondsSinceEpoch: try row.decode(forColumn: "created_at"))
        )
    }

    /// Every column of the row: ``columns`` in order, then the derived `rank_rating`, `listed`,
    /// `name_key`, `cuisine_key`.
    static func arguments(_ restaurant: Restaurant) throws -> StatementArguments {
        let hours = String(decoding: try JSONEncoder().encode(restaurant.openingHours), as: UTF8.self)
        var arguments: StatementArguments = [
            restaurant.id.rawValue, restaurant.name, restaurant.cuisine, restaurant.priceLevel, restaurant.address,
            restaurant.latitude, restaurant.longitude, restaurant.imageUrl, restaurant.phoneNumber, restaurant.website,
            hours, restaurant.ratingTotal, restaurant.reviewCount, restaurant.createdAt.millisecondsSinceEpoch,
        ]
        arguments += derived(restaurant)
        return arguments
    }

    /// The listing columns derived from the domain value: `rank_rating`, `listed`, `name_key`,
    /// `cuisine_key`. They use the Domain's own definitions (rating, validity, lowercasing), so
    /// SQL filters on them agree with ``RestaurantQuery/matches(_:)`` (see ``searchKey(_:)``).
    static func derived(_ restaurant: Restaurant) -> StatementArguments {
        let derived = Derived(restaurant)
        return [derived.rankRating, derived.listed, derived.nameKey, derived.cuisineKey]
    }

    /// The derived listing columns of a restaurant, by name (see ``derived(_:)``).
    struct Derived {
        /// `rank_rating`: minus the rating, so that ascending order is best first.
        let rankRating: Double
        /// `listed`: the restaurant is valid.
        let listed: Bool
        /// `name_key`.
        let nameKey: String
        /// `cuisine_key`.
        let cuisineKey: String

        init(_ restaurant: Restaurant) {
            rankRating = -restaurant.rating
            listed = restaurant.isValid
            nameKey = RestaurantRecord.searchKey(restaurant.name)
            cuisineKey = RestaurantRecord.searchKey(restaurant.cuisine)
        }
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

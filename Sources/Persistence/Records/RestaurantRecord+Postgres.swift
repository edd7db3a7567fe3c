import Domain
import PostgresNIO

extension RestaurantRecord {
    /// The restaurant of a PostgreSQL row of ``columns``, in that order (`opening_hours` is a
    /// `text[]` there).
    static func restaurant(from row: PostgresRow) throws -> Restaurant {
        let (id, name, cuisine, priceLevel, address, latitude, longitude, imageUrl, phoneNumber, website, hours, ratingTotal, reviewCount, createdAt) =
            try row.decode((String, String, String, Int, String, Double, Double, String?, String?, String?, [String], Int, Int, Int64).self)
        return Restaurant(
            id: RestaurantID(id), name: name, cuisine: cuisine, priceLevel: priceLevel, address: address, latitude: latitude,
            longitude: longitude, imageUrl: imageUrl, phoneNumber: phoneNumber, website: website, openingHours: hours,
            ratingTotal: ratingTotal, reviewCount: reviewCount, createdAt: Timestamp(millisecondsSinceEpoch: createdAt)
        )
    }
}

import Domain
import PostgresNIO

/// The SQL translation of a ``RestaurantQuery`` plus paging, for PostgreSQL: the matching
/// listed restaurants in rank order (rating descending, then name and id byte-wise, the "C"
/// collation of those columns). Each filter is a column derived by the Domain's own definitions
/// (``RestaurantRecord/init(_:)``). The cuisine, rating and price filters select exactly what
/// ``RestaurantQuery/matches(_:)`` selects; the text filter compares canonically decomposed bytes
/// and may select a few more rows, never fewer, so the caller filters with
/// ``RestaurantQuery/matches(_:)`` and continues after the last row when that left a page short.
struct PostgresRestaurantListing {
    let query: RestaurantQuery
    let after: RestaurantRankKey?
    let limit: Int

    var sql: PostgresQuery {
        var conditions = ["listed"]
        var binds = PostgresBindings()
        func placeholder(_ value: some PostgresDynamicTypeEncodable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        if let text = query.text.map(RestaurantRecord.searchKey) {
            let bound = placeholder(text)
            conditions.append("(strpos(name_key, \(bound)) > 0 OR strpos(cuisine_key, \(bound)) > 0)")
        }
        if let cuisine = query.cuisine {
            conditions.append("cuisine_key = \(placeholder(RestaurantRecord.searchKey(cuisine)))")
        }
        if let minRating = query.minRating {
            conditions.append("rank_rating <= \(placeholder(-minRating))")
        }
        if let maxPriceLevel = query.maxPriceLevel {
            conditions.append("price_level <= \(placeholder(maxPriceLevel))")
        }
        if let after {
            conditions.append("(rank_rating, name, id) > (\(placeholder(-after.rating)), \(placeholder(after.name)), \(placeholder(after.id.rawValue)))")
        }
        let limit = placeholder(self.limit)
        return PostgresQuery(
            unsafeSQL: """
                SELECT \(RestaurantRecord.postgresSelection) FROM restaurants WHERE \(conditions.joined(separator: " AND "))
                ORDER BY rank_rating, name, id LIMIT \(limit)
                """,
            binds: binds
        )
    }
}

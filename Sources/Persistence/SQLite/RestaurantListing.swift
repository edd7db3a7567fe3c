import Domain
import GRDB

/// The SQL translation of a ``RestaurantQuery`` plus paging: the ids and rank keys of the
/// matching listed restaurants in rank order (rating descending, then name and id byte-wise,
/// which is SQLite's BINARY collation). Each filter is a column derived by the Domain's own
/// definitions. The cuisine, rating and price filters select exactly what
/// ``RestaurantQuery/matches(_:)`` selects; the text filter compares canonically decomposed
/// bytes, not Characters, so it can select a few more rows (e.g. "i" is in the bytes of
/// "i\u{307}stanbul" but is not one of its Characters) and never fewer. The caller filters
/// with ``RestaurantQuery/matches(_:)`` and continues after the last key when that left the
/// page short.
struct RestaurantListing {
    let query: RestaurantQuery
    let after: RestaurantRankKey?
    let limit: Int

    func ranked(_ db: Database) throws -> [RestaurantRankKey] {
        var conditions = ["r.listed = 1"]
        var arguments: StatementArguments = []
        var from = "restaurants r"
        if let text = query.text.map(RestaurantRecord.searchKey) {
            if text.unicodeScalars.count >= 3 {
                // Trigram index: a quoted phrase matches exactly the rows containing the text.
                // CROSS JOIN makes SQLite run the MATCH once and sort its rows, instead of walking
                // the rank index and running the MATCH again for every restaurant.
                from = "restaurant_search s CROSS JOIN restaurants r ON r.number = s.rowid"
                conditions.append("restaurant_search MATCH ?")
                arguments += ["\"" + text.replacing("\"", with: "\"\"") + "\""]
            } else {
                // Shorter than a trigram: filtered while walking the rank index, which stops
                // as soon as `limit` rows matched.
                conditions.append("(instr(r.name_key, ?) > 0 OR instr(r.cuisine_key, ?) > 0)")
                arguments += [text, text]
            }
        }
        if let cuisine = query.cuisine {
            conditions.append("r.cuisine_key = ?")
            arguments += [RestaurantRecord.searchKey(cuisine)]
        }
        if let minRating = query.minRating {
            conditions.append("r.rank_rating <= ?")
            arguments += [-minRating]
        }
        if let maxPriceLevel = query.maxPriceLevel {
            conditions.append("r.price_level <= ?")
            arguments += [maxPriceLevel]
        }
        if let after {
            conditions.append("(r.rank_rating, r.name, r.id) > (?, ?, ?)")
            arguments += [-after.rating, after.name, after.id.rawValue]
        }
        arguments += [limit]
        let sql = "SELECT r.id, r.rank_rating, r.name FROM \(from) WHERE \(conditions.joined(separator: " AND ")) ORDER BY r.rank_rating, r.name, r.id LIMIT ?"
        return try db.rows(sql, arguments).map { row in
            let rankRating: Double = try row.decode(atIndex: 1)
            return RestaurantRankKey(rating: -rankRating, name: try row.decode(atIndex: 2), id: RestaurantID(try row.decode(atIndex: 0)))
        }
    }
}

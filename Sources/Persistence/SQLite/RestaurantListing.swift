import Domain
import GRDB

/// The SQL translation of a ``RestaurantQuery`` plus paging: the ids of the matching listed
/// restaurants in rank order (rating descending, then name and id byte-wise, which is SQLite's
/// BINARY collation). Each filter is a column derived by the Domain's own definitions, so the
/// result is what ``RestaurantQuery/matches(_:)`` would select.
struct RestaurantListing {
    let query: RestaurantQuery
    let after: RestaurantRankKey?
    let limit: Int

    func ids(_ db: Database) throws -> [RestaurantID] {
        var conditions = ["r.listed = 1"]
        var arguments: StatementArguments = []
        var from = "restaurants r"
        if let text = query.text {
            if text.unicodeScalars.count >= 3 {
                // Trigram index: a quoted phrase matches exactly the rows containing the text.
                from = "restaurant_search s JOIN restaurants r ON r.rowid = s.rowid"
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
            arguments += [cuisine]
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
        let sql = "SELECT r.id FROM \(from) WHERE \(conditions.joined(separator: " AND ")) ORDER BY r.rank_rating, r.name, r.id LIMIT ?"
        return try db.rows(sql, arguments).map { RestaurantID(try $0.decode(atIndex: 0)) }
    }
}

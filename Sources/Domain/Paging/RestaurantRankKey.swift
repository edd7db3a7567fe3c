/// Where a restaurant stands in listings: rating descending, then name, then id (both in
/// byte-wise UTF-8 order, as a database's binary collation sorts).
public struct RestaurantRankKey: Sendable, Hashable {
    /// The restaurant's rating.
    public let rating: Double
    /// The restaurant's name.
    public let name: String
    /// The restaurant's id.
    public let id: RestaurantID

    /// Creates a key from its parts.
    public init(rating: Double, name: String, id: RestaurantID) {
        self.rating = rating
        self.name = name
        self.id = id
    }

    /// The key of a restaurant.
    public init(_ restaurant: Restaurant) {
        self.init(rating: restaurant.rating, name: restaurant.name, id: restaurant.id)
    }

    /// Whether `self` is listed before `other`.
    public func precedes(_ other: RestaurantRankKey) -> Bool {
        if rating != other.rating { return rating > other.rating }
        // Bytes, not String equality: canonically equivalent spellings ("é" vs "e\u{301}") are
        // equal Strings but different bytes, and mixing the two would make the order cyclic.
        if !name.utf8.elementsEqual(other.name.utf8) { return name.utf8.lexicographicallyPrecedes(other.name.utf8) }
        return id < other.id
    }

    /// The cursor that continues a listing after this key. It carries the rating (as its exact
    /// bit pattern, so the next page starts exactly here) and the id, but not the name: names can
    /// be long, and a restaurant's name never changes, so the listing looks it up by id.
    var cursor: PageCursor {
        PageCursor(kind: .restaurants, fields: [String(rating.bitPattern, radix: 16), id.rawValue])
    }

    /// The rating and id inside a restaurant-listing cursor.
    static func position(in cursor: PageCursor) throws(DomainError) -> (rating: Double, id: RestaurantID) {
        let fields = try cursor.fields(of: .restaurants, count: 2)
        guard let bits = UInt64(fields[0], radix: 16), !fields[1].isEmpty else {
            throw .invalidInput(field: "cursor", reason: "is not a cursor returned by this listing")
        }
        return (Double(bitPattern: bits), RestaurantID(fields[1]))
    }
}

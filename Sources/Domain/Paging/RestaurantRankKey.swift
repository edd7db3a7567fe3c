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
        if name != other.name { return name.utf8.lexicographicallyPrecedes(other.name.utf8) }
        return id < other.id
    }

    /// The cursor that continues a listing after this key.
    var cursor: PageCursor {
        // The rating travels as its exact bit pattern so the next page starts exactly here.
        PageCursor(kind: .restaurants, fields: [String(rating.bitPattern, radix: 16), name, id.rawValue])
    }

    /// The key inside a restaurant-listing cursor.
    init(cursor: PageCursor) throws(DomainError) {
        let fields = try cursor.fields(of: .restaurants, count: 3)
        guard let bits = UInt64(fields[0], radix: 16) else {
            throw .invalidInput(field: "cursor", reason: "is not a cursor returned by this listing")
        }
        self.init(rating: Double(bitPattern: bits), name: fields[1], id: RestaurantID(fields[2]))
    }
}

/// Which restaurants a listing or search includes. `matches` is the rule; repositories either
/// call it or translate it faithfully into their query language.
public struct RestaurantQuery: Sendable, Hashable {
    /// Only this cuisine, compared case-insensitively.
    public let cuisine: String?
    /// Only ratings at or above this.
    public let minRating: Double?
    /// Only price levels at or below this.
    public let maxPriceLevel: Int?
    /// Only restaurants whose name or cuisine contains this text, case-insensitively.
    public let text: String?

    /// Creates a query; `nil` fields do not filter.
    public init(cuisine: String? = nil, minRating: Double? = nil, maxPriceLevel: Int? = nil, text: String? = nil) {
        self.cuisine = cuisine?.lowercased()
        self.minRating = minRating
        self.maxPriceLevel = maxPriceLevel
        self.text = text?.lowercased()
    }

    /// Whether `restaurant` belongs in the result: it is valid and passes every given filter.
    public func matches(_ restaurant: Restaurant) -> Bool {
        guard restaurant.isValid else { return false }
        if let cuisine, restaurant.cuisine.lowercased() != cuisine { return false }
        if let minRating, restaurant.rating < minRating { return false }
        if let maxPriceLevel, restaurant.priceLevel > maxPriceLevel { return false }
        if let text, !restaurant.name.lowercased().contains(text), !restaurant.cuisine.lowercased().contains(text) {
            return false
        }
        return true
    }
}

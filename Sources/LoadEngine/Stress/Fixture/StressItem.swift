/// A menu item the stress run created, with the stock it started with.
struct StressItem: Sendable {
    /// The item's id.
    let id: String
    /// Index of its restaurant in ``StressFixture/ownRestaurants``.
    let restaurantIndex: Int
    /// Its price (all stress items are in USD).
    let priceCents: Int
    /// Its stock right after creation.
    let initialStock: Int
}

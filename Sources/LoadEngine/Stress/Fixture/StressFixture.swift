/// What a stress run works on: existing restaurants for reads, favourites and reviews, plus
/// users, restaurants and menu items it creates itself (with a per-run tag), so that the
/// invariants of the rows only it writes can be checked exactly.
struct StressFixture: Sendable {
    /// Random per run; part of every name and email the run creates.
    let tag: String
    /// Restaurants to read, favourite and review (existing ones, plus fillers when the store has
    /// too few for the favourites cap to be reachable).
    let restaurantIds: [String]
    /// Restaurants this run created (own ones and fillers): nobody else reviews them, so their
    /// review counts are checked exactly.
    let createdRestaurants: Set<String>
    /// Review counts of ``restaurantIds`` before the run.
    let reviewCountsBefore: [String: Int]
    /// Cuisines seen, for ListRestaurants filters.
    let cuisines: [String]
    /// Query strings for SearchRestaurants.
    let searchTerms: [String]
    /// Users the run registered; see ``isSaveOnly(userIndex:)``.
    let users: [String]
    /// Restaurants the run created, each with a menu of ``items``.
    let ownRestaurants: [String]
    /// Menu items the run created.
    let items: [StressItem]
    /// Indexes into ``items``, per own restaurant.
    let itemsByRestaurant: [[Int]]
    /// Email addresses (lower case) that many clients try to register at once, in mixed case.
    let contestedEmails: [String]
    /// The service's tax rate in parts per million.
    let taxPartsPerMillion: Int

    /// Users with an even index only ever save favourites, so their final favourites are known
    /// exactly (every acknowledged save present, exactly 100 once the cap refused one); the others
    /// also remove some.
    static func isSaveOnly(userIndex: Int) -> Bool { userIndex % 2 == 0 }

    /// Currency of every item the run creates.
    static let currency = "USD"
}

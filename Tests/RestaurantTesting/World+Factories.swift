import Domain
import Testing

/// Test data made through the use cases, so it obeys every rule, or stored directly where a
/// test needs values the rules would not allow.
extension World {
    /// Registers an active user; the e-mail address is unique within this world unless given.
    public func makeUser(name: String = "Ada Lovelace", email: String? = nil) async throws -> User {
        let address = email ?? "user\(emailCounter.next())@example.com"
        return try await registerUser.execute(.init(name: name, email: address))
    }

    /// Registers `count` active users named `U0`, `U1`, …, one after another; their ids in that
    /// order.
    public func makeUsers(_ count: Int) async throws -> [UserID] {
        var ids: [UserID] = []
        for index in 0..<count { ids.append(try await makeUser(name: "U\(index)").id) }
        return ids
    }

    /// Registers a user and deactivates them.
    public func makeInactiveUser(name: String = "Gone User") async throws -> User {
        let user = try await makeUser(name: name)
        return try await deactivateUser.execute(userId: user.id)
    }

    /// Creates a valid restaurant through ``CreateRestaurant``.
    public func makeRestaurant(
        name: String = "Trattoria Roma", cuisine: String = "Italian", priceLevel: Int = 2,
        address: String = "1 Main Street", latitude: Double = 45.0, longitude: Double = 9.0,
        imageUrl: String? = nil
    ) async throws -> Restaurant {
        try await createRestaurant.execute(.init(
            name: name, cuisine: cuisine, priceLevel: priceLevel, address: address,
            latitude: latitude, longitude: longitude, imageUrl: imageUrl
        ))
    }

    /// Stores a restaurant straight into the repository, bypassing validation, so tests can
    /// control ids, rating totals and creation times (or store an invalid one).
    @discardableResult
    public func insertRestaurant(
        id: String, name: String = "Stored", cuisine: String = "Italian", priceLevel: Int = 2,
        address: String = "2 Side Street", latitude: Double = 10, longitude: Double = 10,
        imageUrl: String? = nil, ratingTotal: Int = 0, reviewCount: Int = 0, createdAt: Timestamp? = nil
    ) async throws -> Restaurant {
        let restaurant = Restaurant(
            id: RestaurantID(id), name: name, cuisine: cuisine, priceLevel: priceLevel, address: address,
            latitude: latitude, longitude: longitude, imageUrl: imageUrl,
            ratingTotal: ratingTotal, reviewCount: reviewCount, createdAt: createdAt ?? now
        )
        try await restaurants.insert(restaurant)
        return restaurant
    }

    /// Adds a menu item through ``AddMenuItem``.
    public func makeItem(
        restaurantId: RestaurantID, name: String = "Pizza", priceCents: Int = 1000,
        currency: String = "USD", stock: Int = 10
    ) async throws -> MenuItem {
        try await addMenuItem.execute(.init(restaurantId: restaurantId, name: name, priceCents: priceCents, currency: currency, stock: stock))
    }

    /// Adds one review per rating through ``AddReview`` by `userId` at the current time.
    public func review(_ restaurantId: RestaurantID, by userId: UserID, ratings: [Int], text: String = "ok") async throws {
        for rating in ratings {
            _ = try await addReview.execute(.init(userId: userId, restaurantId: restaurantId, rating: rating, text: text))
        }
    }

    /// The stored stock of an item (fails the test when the item is missing).
    public func stock(of itemId: MenuItemID, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        try #require(try await menu.item(id: itemId), sourceLocation: sourceLocation).stock
    }
}

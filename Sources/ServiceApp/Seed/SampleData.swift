import Domain
import Persistence
import SeededRandom

/// The deterministic sample data set behind `--seed-sample`: 300 restaurants across 12
/// cuisines, 60 users, about 1,650 reviews, about 1,350 menu items, some favorites and orders.
/// Every run produces the same ids (`u-000001`, `r-000001`, `m-…`, `v-…`, `o-…`), names, ratings
/// and times, so examples in the docs work as written. It goes through the use cases, so every
/// sample row obeys the business rules.
///
/// That is why it uses deterministic adapters rather than the service's: ids from
/// ``SequentialIdentifierGenerator`` (one sequence per prefix), choices from ``SplitMix64`` with
/// a fixed seed, and times of its own: each step runs with a ``FixedWallClock`` showing the data
/// set's current time, which the script then moves on.
enum SampleData {
    /// What a seeding run created.
    struct Summary: CustomStringConvertible {
        var users = 0, restaurants = 0, reviews = 0, menuItems = 0, favorites = 0, orders = 0
        var description: String {
            "\(users) users, \(restaurants) restaurants, \(reviews) reviews, \(menuItems) menu items, \(favorites) favorites, \(orders) orders"
        }
    }

    static let cuisines = ["Italian", "Japanese", "Mexican", "Indian", "French", "Thai", "Chinese", "Greek", "Lebanese", "Spanish", "Korean", "Vietnamese"]
    private static let adjectives = ["Golden", "Little", "Blue", "Old", "Happy", "Green", "Royal", "Silver", "Sunny", "Hidden", "Red", "Lucky", "Wild", "Quiet", "Twin", "Corner", "Urban", "Rustic", "Grand", "Humble", "Bright", "Velvet", "Copper", "Salty", "Smoky"]
    private static let nouns = ["Spoon", "Table", "Garden", "Kitchen", "Lantern", "Oven", "Harbor", "Bistro", "Pantry", "Terrace", "Fork", "Market"]
    private static let streets = ["Main St", "High St", "Market St", "Station Rd", "Park Ave", "River Rd", "Church Ln", "Mill Rd", "King St", "Queen St"]
    private static let dishes = ["Soup of the Day", "House Salad", "Grilled Fish", "Roast Chicken", "Vegetable Curry", "Noodle Bowl", "Flatbread", "Dumplings", "Rice Plate", "Chef's Special", "Dessert Platter", "Lemonade"]
    private static let firstNames = ["Ada", "Grace", "Alan", "Linus", "Barbara", "Ken", "Margaret", "Dennis", "Frances", "Edsger", "Radia", "John", "Sophie", "Tim", "Hedy"]
    private static let comments = ["Lovely evening, friendly staff.", "Food was fine but the wait was long.", "Best meal I've had this year!", "Portions were small for the price.", "Great value, will come back.", "Too noisy for a quiet dinner.", "Fresh ingredients and a creative menu.", ""]

    /// Seeds the repositories unless they already hold restaurants; returns what was created, or
    /// `nil` when the store was not empty.
    static func seedIfEmpty(
        users: any UserRepository, restaurants: any RestaurantRepository, favorites: any FavoriteRepository,
        menu: any MenuRepository, orders: any OrderRepository, taxRate: TaxRate
    ) async throws -> Summary? {
        guard try await restaurants.newest(after: nil, limit: 1).isEmpty else { return nil }
        var random = SplitMix64(seed: 20_261_121)
        var now = Timestamp(year: 2025, month: 1, day: 6, hour: 9)
        var summary = Summary()

        let userSequence = SequentialIdentifierGenerator(prefix: "u")
        var userIds: [UserID] = []
        for index in 0..<60 {
            let first = firstNames[index % firstNames.count]
            let register = RegisterUser(users: users, clock: FixedWallClock(now), ids: userSequence)
            let user = try await register.execute(.init(name: "\(first) Sample\(index + 1)", email: "\(first.lowercased()).sample\(index + 1)@example.com"))
            userIds.append(user.id)
            now = now.adding(milliseconds: 3_600_000)
        }
        summary.users = userIds.count

        let restaurantSequence = SequentialIdentifierGenerator(prefix: "r")
        let addItem = AddMenuItem(restaurants: restaurants, menu: menu, ids: SequentialIdentifierGenerator(prefix: "m"))
        var restaurantIds: [RestaurantID] = []
        var itemsByRestaurant: [[MenuItem]] = []
        for index in 0..<300 {
            let cuisine = cuisines[index % cuisines.count]
            let name = "\(adjectives[index % adjectives.count]) \(nouns[(index / adjectives.count) % nouns.count]) \(cuisine)"
            let create = CreateRestaurant(restaurants: restaurants, clock: FixedWallClock(now), ids: restaurantSequence)
            let restaurant = try await create.execute(.init(
                name: name, cuisine: cuisine, priceLevel: 1 + Int(random.next() % 4),
                address: "\(1 + index) \(streets[index % streets.count]), Springfield",
                latitude: 40 + Double(random.next() % 10_000) / 10_000, longitude: -74 + Double(random.next() % 10_000) / 10_000,
                imageUrl: "https://images.example.com/restaurants/\(index + 1).jpg",
                phoneNumber: "+1-555-\(1000 + index)", website: index % 3 == 0 ? "https://\(name.lowercased().replacingSpaces).example.com" : nil,
                openingHours: ["Mon-Fri 11:00-22:00", "Sat-Sun 10:00-23:00"]
            ))
            restaurantIds.append(restaurant.id)
            var items: [MenuItem] = []
            let currency = index % 10 == 9 ? "EUR" : "USD"
            for dish in 0..<(3 + Int(random.next() % 4)) {
                items.append(try await addItem.execute(.init(
                    restaurantId: restaurant.id, name: dishes[(index + dish * 5) % dishes.count],
                    priceCents: 600 + Int(random.next() % 40) * 50, currency: currency, stock: 20 + Int(random.next() % 200)
                )))
            }
            itemsByRestaurant.append(items)
            now = now.adding(milliseconds: 2 * 3_600_000)
        }
        summary.restaurants = restaurantIds.count
        summary.menuItems = itemsByRestaurant.map(\.count).reduce(0, +)

        let reviewSequence = SequentialIdentifierGenerator(prefix: "v")
        for (index, restaurantId) in restaurantIds.enumerated() {
            // A per-restaurant bias gives a spread of ratings rather than all near 3.
            let bias = Int(random.next() % 5)
            for _ in 0..<Int(random.next() % 11) {
                let rating = max(1, min(5, 1 + bias + Int(random.next() % 3) - 1))
                let review = AddReview(users: users, restaurants: restaurants, clock: FixedWallClock(now), ids: reviewSequence)
                _ = try await review.execute(.init(
                    userId: userIds[Int(random.next() % UInt64(userIds.count))], restaurantId: restaurantId,
                    rating: rating, text: comments[(index + summary.reviews) % comments.count]
                ))
                summary.reviews += 1
                now = now.adding(milliseconds: 20 * 60_000)
            }
        }

        for (index, userId) in userIds.enumerated() {
            for pick in 0..<(index % 8) {
                let save = SaveFavoriteRestaurant(users: users, restaurants: restaurants, favorites: favorites, clock: FixedWallClock(now))
                _ = try await save.execute(userId: userId, restaurantId: restaurantIds[(index * 7 + pick * 13) % restaurantIds.count])
                summary.favorites += 1
                now = now.adding(milliseconds: 60_000)
            }
        }

        let orderSequence = SequentialIdentifierGenerator(prefix: "o")
        for index in 0..<40 {
            let items = itemsByRestaurant[(index * 11) % itemsByRestaurant.count]
            let lines = items.prefix(2).map { PlaceOrder.LineInput(itemId: $0.id, quantity: 1 + index % 2) }
            let place = PlaceOrder(users: users, menu: menu, orders: orders, clock: FixedWallClock(now), ids: orderSequence, taxRate: FixedTaxRate(taxRate))
            _ = try await place.execute(.init(userId: userIds[index % userIds.count], items: Array(lines), discountCents: index % 4 == 0 ? 100 : nil, deliveryAddress: "\(10 + index) Elm St, Springfield"))
            summary.orders += 1
            now = now.adding(milliseconds: 30 * 60_000)
        }
        return summary
    }
}

extension String {
    fileprivate var replacingSpaces: String {
        String(map { $0 == " " ? "-" : $0 })
    }
}

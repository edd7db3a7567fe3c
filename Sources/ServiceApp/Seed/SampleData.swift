import Domain
import Persistence
import SeededRandom

/// The deterministic sample data set behind `--seed-sample`: 300 restaurants across 12
/// cuisines, 60 users, about 1,650 reviews, about 1,350 menu items, some favorites and orders.
/// Every run produces the same ids (`u-000001`, `r-000001`, `m-…`, `v-…`, `o-…`), names, ratings
/// and times, so examples in the docs work as written. It goes through the use cases, so every
/// sample row obeys the business rules.
///
/// That is why it uses deterministic adapters rather than the service's: ids it numbers itself
/// (one sequence per prefix: ``SampleIds``), choices from ``SplitMix64`` with
/// a fixed seed, and times of its own: each step runs with a ``FixedWallClock`` showing the data
/// set's current time, which the script then moves on.
enum SampleData {
    /// What a seeding run created.
    struct Summary: CustomStringConvertible {
        var users = 0, restaurants = 0, reviews = 0, menuItems = 0, favorites = 0, orders = 0
        /// Whether this run finished a sample that an interrupted earlier run had begun.
        var resumed = false
        var description: String {
            "\(users) users, \(restaurants) restaurants, \(reviews) reviews, \(menuItems) menu items, \(favorites) favorites, \(orders) orders"
                + (resumed ? " (finishing a sample an interrupted start had begun)" : "")
        }
    }

    static let cuisines = ["Italian", "Japanese", "Mexican", "Indian", "French", "Thai", "Chinese", "Greek", "Lebanese", "Spanish", "Korean", "Vietnamese"]
    private static let adjectives = ["Golden", "Little", "Blue", "Old", "Happy", "Green", "Royal", "Silver", "Sunny", "Hidden", "Red", "Lucky", "Wild", "Quiet", "Twin", "Corner", "Urban", "Rustic", "Grand", "Humble", "Bright", "Velvet", "Copper", "Salty", "Smoky"]
    private static let nouns = ["Spoon", "Table", "Garden", "Kitchen", "Lantern", "Oven", "Harbor", "Bistro", "Pantry", "Terrace", "Fork", "Market"]
    private static let streets = ["Main St", "High St", "Market St", "Station Rd", "Park Ave", "River Rd", "Church Ln", "Mill Rd", "King St", "Queen St"]
    private static let dishes = ["Soup of the Day", "House Salad", "Grilled Fish", "Roast Chicken", "Vegetable Curry", "Noodle Bowl", "Flatbread", "Dumplings", "Rice Plate", "Chef's Special", "Dessert Platter", "Lemonade"]
    private static let firstNames = ["Ada", "Grace", "Alan", "Linus", "Barbara", "Ken", "Margaret", "Dennis", "Frances", "Edsger", "Radia", "John", "Sophie", "Tim", "Hedy"]
    private static let comments = ["Lovely evening, friendly staff.", "Food was fine but the wait was long.", "Best meal I've had this year!", "Portions were small for the price.", "Great value, will come back.", "Too noisy for a quiet dinner.", "Fresh ingredients and a creative menu.", ""]

    /// How many users and orders the sample has: its first write registers user 1, its last
    /// places order ``orderCount``, which is how a later start tells a finished sample from an
    /// interrupted one.
    static let userCount = 60, orderCount = 40

    /// Seeds the repositories when they hold no restaurants, or finishes a sample an interrupted
    /// run had begun; returns what was created, or `nil` when the store holds data already (a
    /// finished sample included).
    ///
    /// Every step is one atomic write of a use case, and the script is deterministic (its ids,
    /// choices and times), so a kill at any moment leaves the sample's first steps and nothing
    /// else. A store holding sample user 1 but not the sample's last order is such a store: this
    /// run walks the same script, skips the steps whose rows exist, and does the rest, so the
    /// store ends as an uninterrupted run leaves it. `stoppingAfter` ends the run after that many
    /// writes, as a kill would (tests use it).
    static func seedIfEmpty(
        users: any UserRepository, restaurants: any RestaurantRepository, favorites: any FavoriteRepository,
        menu: any MenuRepository, orders: any OrderRepository, taxRate: TaxRate, stoppingAfter writeLimit: Int = .max
    ) async throws -> Summary? {
        if try await orders.order(id: OrderID(SampleIds(prefix: "o").id(orderCount))) != nil { return nil }
        let resuming = try await users.user(id: UserID(SampleIds(prefix: "u").id(1))) != nil
        if !resuming, !(try await restaurants.newest(after: nil, limit: 1).isEmpty) { return nil }

        var random = SplitMix64(seed: 20_261_121)
        var now = Timestamp(year: 2025, month: 1, day: 6, hour: 9)
        var summary = Summary(resumed: resuming)
        var writes = 0
        /// Whether the step that writes a row found by `exists` is to run: not when a resumed
        /// run finds the row, nor past the write limit (which throws, as a kill stops a run).
        func shouldWrite(_ exists: () async throws -> Bool) async throws -> Bool {
            if resuming, try await exists() { return false }
            guard writes < writeLimit else { throw SeedingStopped() }
            writes += 1
            return true
        }

        var userIds = SampleIds(prefix: "u")
        var sampleUsers: [UserID] = []
        for index in 0..<userCount {
            let first = firstNames[index % firstNames.count]
            let id = UserID(userIds.next())
            if try await shouldWrite({ try await users.user(id: id) != nil }) {
                let register = RegisterUser(users: users, clock: FixedWallClock(now), ids: PresetIdentifier(id.rawValue))
                _ = try await register.execute(.init(name: "\(first) Sample\(index + 1)", email: "\(first.lowercased()).sample\(index + 1)@example.com"))
                summary.users += 1
            }
            sampleUsers.append(id)
            now = now.adding(milliseconds: 3_600_000)
        }

        var restaurantIds = SampleIds(prefix: "r"), itemIds = SampleIds(prefix: "m")
        var sampleRestaurants: [RestaurantID] = []
        var itemsByRestaurant: [[MenuItemID]] = []
        for index in 0..<300 {
            let cuisine = cuisines[index % cuisines.count]
            let name = "\(adjectives[index % adjectives.count]) \(nouns[(index / adjectives.count) % nouns.count]) \(cuisine)"
            let id = RestaurantID(restaurantIds.next())
            let input = CreateRestaurant.Input(
                name: name, cuisine: cuisine, priceLevel: 1 + Int(random.next() % 4),
                address: "\(1 + index) \(streets[index % streets.count]), Springfield",
                latitude: 40 + Double(random.next() % 10_000) / 10_000, longitude: -74 + Double(random.next() % 10_000) / 10_000,
                imageUrl: "https://images.example.com/restaurants/\(index + 1).jpg",
                phoneNumber: "+1-555-\(1000 + index)", website: index % 3 == 0 ? "https://\(name.lowercased().replacingSpaces).example.com" : nil,
                openingHours: ["Mon-Fri 11:00-22:00", "Sat-Sun 10:00-23:00"]
            )
            if try await shouldWrite({ try await restaurants.restaurant(id: id) != nil }) {
                _ = try await CreateRestaurant(restaurants: restaurants, clock: FixedWallClock(now), ids: PresetIdentifier(id.rawValue)).execute(input)
                summary.restaurants += 1
            }
            sampleRestaurants.append(id)
            var items: [MenuItemID] = []
            let currency = index % 10 == 9 ? "EUR" : "USD"
            for dish in 0..<(3 + Int(random.next() % 4)) {
                let itemId = MenuItemID(itemIds.next())
                let input = AddMenuItem.Input(
                    restaurantId: id, name: dishes[(index + dish * 5) % dishes.count],
                    priceCents: 600 + Int(random.next() % 40) * 50, currency: currency, stock: 20 + Int(random.next() % 200)
                )
                if try await shouldWrite({ try await menu.item(id: itemId) != nil }) {
                    _ = try await AddMenuItem(restaurants: restaurants, menu: menu, ids: PresetIdentifier(itemId.rawValue)).execute(input)
                    summary.menuItems += 1
                }
                items.append(itemId)
            }
            itemsByRestaurant.append(items)
            now = now.adding(milliseconds: 2 * 3_600_000)
        }

        var reviewIds = SampleIds(prefix: "v")
        var reviewNumber = 0
        for (index, restaurantId) in sampleRestaurants.enumerated() {
            // A per-restaurant bias gives a spread of ratings rather than all near 3.
            let bias = Int(random.next() % 5)
            // A restaurant's sample reviews are written in order, and nothing else reviews a
            // sample restaurant before the sample is finished: the first `reviewCount` are done.
            let done = resuming ? (try await restaurants.restaurant(id: restaurantId)?.reviewCount ?? 0) : 0
            for number in 0..<Int(random.next() % 11) {
                let rating = max(1, min(5, 1 + bias + Int(random.next() % 3) - 1))
                let id = reviewIds.next()
                if try await shouldWrite({ number < done }) {
                    let review = AddReview(users: users, restaurants: restaurants, clock: FixedWallClock(now), ids: PresetIdentifier(id))
                    _ = try await review.execute(.init(
                        userId: sampleUsers[Int(random.next() % UInt64(sampleUsers.count))], restaurantId: restaurantId,
                        rating: rating, text: comments[(index + reviewNumber) % comments.count]
                    ))
                    summary.reviews += 1
                } else {
                    _ = random.next()
                }
                reviewNumber += 1
                now = now.adding(milliseconds: 20 * 60_000)
            }
        }

        for (index, userId) in sampleUsers.enumerated() {
            for pick in 0..<(index % 8) {
                let restaurantId = sampleRestaurants[(index * 7 + pick * 13) % sampleRestaurants.count]
                if try await shouldWrite({ try await favorites.contains(userId: userId, restaurantId: restaurantId) }) {
                    let save = SaveFavoriteRestaurant(users: users, restaurants: restaurants, favorites: favorites, clock: FixedWallClock(now))
                    _ = try await save.execute(userId: userId, restaurantId: restaurantId)
                    summary.favorites += 1
                }
                now = now.adding(milliseconds: 60_000)
            }
        }

        var orderIds = SampleIds(prefix: "o")
        for index in 0..<orderCount {
            let items = itemsByRestaurant[(index * 11) % itemsByRestaurant.count]
            let lines = items.prefix(2).map { PlaceOrder.LineInput(itemId: $0, quantity: 1 + index % 2) }
            let id = OrderID(orderIds.next())
            if try await shouldWrite({ try await orders.order(id: id) != nil }) {
                let place = PlaceOrder(users: users, menu: menu, orders: orders, clock: FixedWallClock(now), ids: PresetIdentifier(id.rawValue), taxRate: FixedTaxRate(taxRate))
                _ = try await place.execute(.init(userId: sampleUsers[index % sampleUsers.count], items: Array(lines), discountCents: index % 4 == 0 ? 100 : nil, deliveryAddress: "\(10 + index) Elm St, Springfield"))
                summary.orders += 1
            }
            now = now.adding(milliseconds: 30 * 60_000)
        }
        return summary
    }
}

/// Thrown by ``SampleData/seedIfEmpty(users:restaurants:favorites:menu:orders:taxRate:stoppingAfter:)``
/// when it reaches its write limit: the run stops there, as a kill would stop it.
struct SeedingStopped: Error {}

/// The sample's ids: `prefix-000001`, `prefix-000002`, … in the order the script makes them.
struct SampleIds {
    let prefix: String
    private var count = 0

    init(prefix: String) {
        self.prefix = prefix
    }

    /// The `number`th id (from 1).
    func id(_ number: Int) -> String {
        let digits = String(number)
        return prefix + "-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The next id in the script.
    mutating func next() -> String {
        count += 1
        return id(count)
    }
}

/// Gives a use case the one id the sample script chose for the row it writes.
struct PresetIdentifier: IdentifierGenerator {
    let id: String

    init(_ id: String) {
        self.id = id
    }

    func makeIdentifier() -> String { id }
}

extension String {
    fileprivate var replacingSpaces: String {
        String(map { $0 == " " ? "-" : $0 })
    }
}

import WireContract
import WireJSON

extension StressFixture {
    /// How many restaurants to look at in an existing store (reads, favourites, reviews).
    static let restaurantSampleLimit = 2000
    /// Fewer restaurants than this and the favourites cap could not be reached: fillers are created.
    static let minimumRestaurants = 150
    /// Restaurants with a menu, created per run.
    static let ownRestaurantCount = 4
    /// Menu items per own restaurant.
    static let itemsPerRestaurant = 5
    /// Starting stock of each item: small, so orders run out and race the restocks.
    static let initialStock = 60
    /// Email addresses raced by `register` requests.
    static let contestedEmailCount = 16

    /// Looks at the store and creates the run's own rows through the public use cases.
    static func prepare(
        caller: BatchCaller, tag: String, userCount: Int, taxPartsPerMillion: Int
    ) throws(LoadFailure) -> StressFixture {
        // Existing restaurants: the first pages of the listing.
        var existing: [JSONValue] = []
        var cursor: String?
        repeat {
            var params: JSONObject = [WireMember.limit.name: 500]
            if let cursor { params.append(key: WireMember.cursor.name, value: .string(cursor)) }
            let page = try caller.results(.listRestaurants, [params])[0]
            existing += page[WireMember.restaurants.name]?.arrayValue ?? []
            cursor = page[WireMember.nextCursor.name]?.stringValue
        } while cursor != nil && existing.count < restaurantSampleLimit

        var restaurantIds = existing.compactMap { $0[WireMember.id.name]?.stringValue }
        var reviewCountsBefore: [String: Int] = [:]
        for restaurant in existing {
            if let id = restaurant[WireMember.id.name]?.stringValue { reviewCountsBefore[id] = restaurant[WireMember.reviewCount.name]?.intValue ?? 0 }
        }
        var cuisines: [String] = []
        var searchTerms: [String] = []
        for restaurant in existing {
            if let cuisine = restaurant[WireMember.cuisine.name]?.stringValue, !cuisines.contains(cuisine), cuisines.count < 20 {
                cuisines.append(cuisine)
                searchTerms.append(String(cuisine.prefix(4)).lowercased())
            }
            if let name = restaurant[WireMember.name.name]?.stringValue, let word = name.split(separator: " ").first, searchTerms.count < 40,
                !searchTerms.contains(String(word))
            {
                searchTerms.append(String(word))
            }
        }

        func restaurantParams(_ name: String, _ number: Int) -> JSONObject {
            [
                WireMember.name.name: .string(name), WireMember.cuisine.name: "Stress", WireMember.priceLevel.name: .int(1 + number % 4),
                WireMember.address.name: .string("\(number + 1) Stress Way, Springfield"),
                WireMember.latitude.name: .double(40 + Double(number % 100) / 1000), WireMember.longitude.name: .double(-74 - Double(number % 100) / 1000),
            ]
        }
        let ownParams = (0..<ownRestaurantCount).map { restaurantParams("Stress Kitchen \(tag) \($0 + 1)", $0) }
        var ownRestaurants: [String] = []
        for result in try caller.results(.createRestaurant, ownParams, write: true) { ownRestaurants.append(try restaurantId(of: result)) }
        var created = Set(ownRestaurants)
        if restaurantIds.count < minimumRestaurants {
            let fillers = (restaurantIds.count..<minimumRestaurants).map { restaurantParams("Stress Filler \(tag) \($0 + 1)", $0) }
            for result in try caller.results(.createRestaurant, fillers, write: true) {
                let id = try restaurantId(of: result)
                restaurantIds.append(id)
                created.insert(id)
                reviewCountsBefore[id] = 0
            }
        }
        restaurantIds += ownRestaurants
        for id in ownRestaurants { reviewCountsBefore[id] = 0 }
        cuisines.append("Stress")
        searchTerms += ["stress", "kitchen \(tag)"]

        // Menus: prices from 10.00 up, so every order is over the 10.00 minimum.
        var itemParams: [JSONObject] = []
        var itemShapes: [(restaurant: Int, price: Int)] = []
        for (restaurantIndex, restaurant) in ownRestaurants.enumerated() {
            for dish in 0..<itemsPerRestaurant {
                let price = 1000 + 137 * dish + 250 * restaurantIndex
                itemShapes.append((restaurantIndex, price))
                itemParams.append([
                    WireMember.restaurantId.name: .string(restaurant), WireMember.name.name: .string("Stress dish \(dish + 1)"), WireMember.priceCents.name: .int(price),
                    WireMember.currency.name: .string(currency), WireMember.stock.name: .int(initialStock),
                ])
            }
        }
        var items: [StressItem] = []
        for (shape, result) in zip(itemShapes, try caller.results(.addMenuItem, itemParams, write: true)) {
            guard let id = result[WireMember.item.name]?[WireMember.id.name]?.stringValue else {
                throw LoadFailure(.serviceError, "AddMenuItem answered no item id: \(result)")
            }
            items.append(StressItem(id: id, restaurantIndex: shape.restaurant, priceCents: shape.price, initialStock: initialStock))
        }
        let itemsByRestaurant = ownRestaurants.indices.map { restaurant in items.indices.filter { items[$0].restaurantIndex == restaurant } }

        let userParams: [JSONObject] = (0..<userCount).map { number in
            [WireMember.name.name: .string("Stress \(tag) \(number + 1)"), WireMember.email.name: .string("stress-\(tag)-\(number + 1)@example.test")]
        }
        var users: [String] = []
        for result in try caller.results(.registerUser, userParams, write: true) {
            guard let id = result[WireMember.user.name]?[WireMember.id.name]?.stringValue else {
                throw LoadFailure(.serviceError, "RegisterUser answered no user id: \(result)")
            }
            users.append(id)
        }

        return StressFixture(
            tag: tag, restaurantIds: restaurantIds, createdRestaurants: created, reviewCountsBefore: reviewCountsBefore, cuisines: cuisines,
            searchTerms: searchTerms, users: users, ownRestaurants: ownRestaurants, items: items,
            itemsByRestaurant: itemsByRestaurant,
            contestedEmails: (0..<contestedEmailCount).map { "stress-\(tag)-contested-\($0 + 1)@example.test" },
            taxPartsPerMillion: taxPartsPerMillion
        )
    }

    private static func restaurantId(of result: JSONValue) throws(LoadFailure) -> String {
        guard let id = result[WireMember.restaurant.name]?[WireMember.id.name]?.stringValue else {
            throw LoadFailure(.serviceError, "CreateRestaurant answered no restaurant id: \(result)")
        }
        return id
    }
}

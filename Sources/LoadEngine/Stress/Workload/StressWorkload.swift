import WireContract
import WireJSON

/// Generates a client's requests from the mix and the fixture, with deliberate hot keys so the
/// invariants are raced on single rows: user 0's favourites, own restaurant 0's reviews, item 0's
/// stock and a handful of contested email addresses.
struct StressWorkload {
    let fixture: StressFixture
    let mix: StressMix
    var random: StressRandom
    private let clientIndex: Int
    private var serial = 0
    /// Orders this client placed lately (id, user), newest last, for cancels to pick from.
    private var placedOrders: [(id: String, userId: String)] = []
    /// How many placed orders ``placedOrders`` keeps.
    private static let placedOrdersKept = 64

    init(fixture: StressFixture, mix: StressMix, seed: UInt64, clientIndex: Int) {
        self.fixture = fixture
        self.mix = mix
        self.random = StressRandom(seed: seed ^ (UInt64(clientIndex) &* 0x9E37_79B9_7F4A_7C15))
        self.clientIndex = clientIndex
    }

    /// The use cases a mix may send to.
    static func useCases(for mix: StressMix) -> [UseCaseName] {
        var names: [UseCaseName] = []
        if mix.includes(.read) {
            names += [
                .getRestaurant, .listRestaurants, .searchRestaurants, .getReviews, .getMenu, .loadFeed,
                .calculateRestaurantScore, .getUserProfile, .getFavoriteRestaurants, .listOrders,
            ]
        }
        if mix.includes(.favorite) { names += [.saveFavoriteRestaurant, .removeFavoriteRestaurant] }
        if mix.includes(.review) { names.append(.addReview) }
        if mix.includes(.order) || mix.includes(.cancel) { names.append(.placeOrder) }
        if mix.includes(.cancel) { names.append(.cancelOrder) }
        if mix.includes(.restock) { names.append(.restockMenuItem) }
        if mix.includes(.update) { names.append(.updateUserProfile) }
        if mix.includes(.register) { names.append(.registerUser) }
        return names
    }

    /// The next request.
    mutating func next() -> StressRequest {
        switch mix.pick(random.next()) {
        case .read: read()
        case .favorite: favorite()
        case .review: review()
        case .order: order()
        case .cancel: cancel()
        case .restock: restock()
        case .update: update()
        case .register: register()
        }
    }

    private mutating func anyRestaurant() -> String {
        fixture.restaurantIds[random.index(fixture.restaurantIds.count)]
    }

    private mutating func anyUser() -> (index: Int, id: String) {
        let index = random.index(fixture.users.count)
        return (index, fixture.users[index])
    }

    private mutating func read() -> StressRequest {
        var params = StressParams()
        switch random.index(10) {
        case 0:
            params.add(WireMember.restaurantId, anyRestaurant())
            if random.chance(50) { params.add(WireMember.userId, anyUser().id) }
            return params.request(.getRestaurant, effect: .read(.restaurant))
        case 1:
            params.add(WireMember.limit, 1 + random.index(50))
            if !fixture.cuisines.isEmpty, random.chance(50) { params.add(WireMember.cuisine, fixture.cuisines[random.index(fixture.cuisines.count)]) }
            if random.chance(30) { params.add(WireMember.minRating, Double(random.index(9)) / 2) }
            if random.chance(30) { params.add(WireMember.maxPriceLevel, 1 + random.index(4)) }
            return params.request(.listRestaurants, effect: .read(.none))
        case 2:
            params.add(WireMember.query, fixture.searchTerms[random.index(fixture.searchTerms.count)])
            params.add(WireMember.limit, 20)
            return params.request(.searchRestaurants, effect: .read(.none))
        case 3:
            params.add(WireMember.restaurantId, anyRestaurant())
            params.add(WireMember.limit, 20)
            return params.request(.getReviews, effect: .read(.none))
        case 4:
            params.add(WireMember.restaurantId, random.chance(60) ? fixture.ownRestaurants[random.index(fixture.ownRestaurants.count)] : anyRestaurant())
            return params.request(.getMenu, effect: .read(.menu))
        case 5:
            params.add(WireMember.limit, 1 + random.index(30))
            return params.request(.loadFeed, effect: .read(.none))
        case 6:
            params.add(WireMember.restaurantId, anyRestaurant())
            return params.request(.calculateRestaurantScore, effect: .read(.none))
        case 7:
            params.add(WireMember.userId, anyUser().id)
            return params.request(.getUserProfile, effect: .read(.none))
        case 8:
            params.add(WireMember.userId, anyUser().id)
            return params.request(.getFavoriteRestaurants, effect: .read(.favorites))
        default:
            params.add(WireMember.userId, anyUser().id)
            params.add(WireMember.limit, 20)
            return params.request(.listOrders, effect: .read(.none))
        }
    }

    private mutating func favorite() -> StressRequest {
        // One user in five saves is the hot user 0, so its cap is raced from every client.
        let user = random.chance(20) ? (index: 0, id: fixture.users[0]) : anyUser()
        let restaurant = anyRestaurant()
        var params = StressParams()
        params.add(WireMember.userId, user.id)
        params.add(WireMember.restaurantId, restaurant)
        if !StressFixture.isSaveOnly(userIndex: user.index), random.chance(35) {
            return params.request(.removeFavoriteRestaurant, effect: .removeFavorite(user: user.index))
        }
        return params.request(.saveFavoriteRestaurant, effect: .saveFavorite(user: user.index, restaurant: restaurant))
    }

    private mutating func review() -> StressRequest {
        let restaurant: String
        switch random.index(10) {
        case 0..<4: restaurant = fixture.ownRestaurants[0]
        case 4..<6: restaurant = fixture.ownRestaurants[random.index(fixture.ownRestaurants.count)]
        default: restaurant = anyRestaurant()
        }
        serial += 1
        var params = StressParams()
        params.add(WireMember.userId, anyUser().id)
        params.add(WireMember.restaurantId, restaurant)
        params.add(WireMember.rating, 1 + random.index(5))
        params.add(WireMember.text, "stress \(fixture.tag) c\(clientIndex) #\(serial)")
        return params.request(.addReview, effect: .review(restaurant: restaurant))
    }

    private mutating func order() -> StressRequest {
        let menu: [Int]
        // Half of the orders include item 0 of restaurant 0: one hot row of stock.
        if random.chance(50) {
            menu = fixture.itemsByRestaurant[0]
        } else {
            menu = fixture.itemsByRestaurant[random.index(fixture.itemsByRestaurant.count)]
        }
        var chosen: [Int] = []
        if menu.first == 0, random.chance(70) { chosen.append(0) }
        let lineCount = 1 + random.index(min(3, menu.count))
        while chosen.count < lineCount {
            let candidate = menu[random.index(menu.count)]
            if !chosen.contains(candidate) { chosen.append(candidate) }
        }
        var lines: [(itemId: String, quantity: Int)] = []
        var subtotal = 0
        for item in chosen {
            let quantity = 1 + random.index(3)
            subtotal += quantity * fixture.items[item].priceCents
            lines.append((fixture.items[item].id, quantity))
        }
        let user = anyUser()
        var params = StressParams()
        params.add(WireMember.userId, user.id)
        params.addLines(lines)
        params.add(WireMember.deliveryAddress, "\(1 + random.index(999)) Stress Way, Springfield")
        // Discounts keep subtotal − discount ≥ 1000, so the minimum-order rule never refuses.
        if random.chance(25), subtotal > 1000 {
            params.add(WireMember.discountCents, random.index(min(subtotal - 1000, 500) + 1))
        }
        return params.request(.placeOrder, effect: .order(userId: user.id))
    }

    /// Notes an order this client placed, for later cancels.
    mutating func notePlaced(orderId: String, userId: String) {
        guard mix.includes(.cancel) else { return }
        if placedOrders.count == Self.placedOrdersKept { placedOrders.removeFirst() }
        placedOrders.append((orderId, userId))
    }

    private mutating func cancel() -> StressRequest {
        guard !placedOrders.isEmpty else { return order() }
        // Mostly a recent order, taken off the list; one in five stays listed, so a later cancel
        // of it races this one or finds it cancelled.
        let index = placedOrders.count - 1 - random.index(min(8, placedOrders.count))
        let chosen = placedOrders[index]
        if !random.chance(20) { placedOrders.remove(at: index) }
        var params = StressParams()
        params.add(WireMember.orderId, chosen.id)
        params.add(WireMember.userId, chosen.userId)
        return params.request(.cancelOrder, effect: .cancel(orderId: chosen.id))
    }

    private mutating func restock() -> StressRequest {
        let item = random.chance(30) ? 0 : random.index(fixture.items.count)
        let quantity = 1 + random.index(10)
        var params = StressParams()
        params.add(WireMember.itemId, fixture.items[item].id)
        params.add(WireMember.quantity, quantity)
        return params.request(.restockMenuItem, effect: .restock(item: item, quantity: quantity))
    }

    private mutating func update() -> StressRequest {
        serial += 1
        let name = "Stress \(fixture.tag) c\(clientIndex) #\(serial)"
        var params = StressParams()
        params.add(WireMember.userId, anyUser().id)
        params.add(WireMember.name, name)
        return params.request(.updateUserProfile, effect: .updateProfile(name: name))
    }

    private mutating func register() -> StressRequest {
        let email = random.index(fixture.contestedEmails.count)
        // The same address in a random mix of upper and lower case: uniqueness is case-insensitive.
        // (The contested addresses are ASCII.)
        var bytes = Array(fixture.contestedEmails[email].utf8)
        for index in bytes.indices where random.chance(50) && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index]) {
            bytes[index] -= 0x20
        }
        let address = String(decoding: bytes, as: UTF8.self)
        var params = StressParams()
        params.add(WireMember.name, "Contender \(clientIndex)")
        params.add(WireMember.email, address)
        return params.request(.registerUser, effect: .register(email: email, address: address))
    }
}

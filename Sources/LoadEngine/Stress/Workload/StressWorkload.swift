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
        switch random.index(10) {
        case 0:
            var params: JSONObject = [WireMember.restaurantId.name: .string(anyRestaurant())]
            if random.chance(50) { params.append(key: WireMember.userId.name, value: .string(anyUser().id)) }
            return StressRequest(useCase: .getRestaurant, params: params, effect: .read(.restaurant))
        case 1:
            var params: JSONObject = [WireMember.limit.name: .int(1 + random.index(50))]
            if !fixture.cuisines.isEmpty, random.chance(50) {
                params.append(key: WireMember.cuisine.name, value: .string(fixture.cuisines[random.index(fixture.cuisines.count)]))
            }
            if random.chance(30) { params.append(key: WireMember.minRating.name, value: .double(Double(random.index(9)) / 2)) }
            if random.chance(30) { params.append(key: WireMember.maxPriceLevel.name, value: .int(1 + random.index(4))) }
            return StressRequest(useCase: .listRestaurants, params: params, effect: .read(.none))
        case 2:
            let query = fixture.searchTerms[random.index(fixture.searchTerms.count)]
            return StressRequest(useCase: .searchRestaurants, params: [WireMember.query.name: .string(query), WireMember.limit.name: 20], effect: .read(.none))
        case 3:
            return StressRequest(useCase: .getReviews, params: [WireMember.restaurantId.name: .string(anyRestaurant()), WireMember.limit.name: 20], effect: .read(.none))
        case 4:
            let restaurant = random.chance(60) ? fixture.ownRestaurants[random.index(fixture.ownRestaurants.count)] : anyRestaurant()
            return StressRequest(useCase: .getMenu, params: [WireMember.restaurantId.name: .string(restaurant)], effect: .read(.menu))
        case 5:
            return StressRequest(useCase: .loadFeed, params: [WireMember.limit.name: .int(1 + random.index(30))], effect: .read(.none))
        case 6:
            return StressRequest(useCase: .calculateRestaurantScore, params: [WireMember.restaurantId.name: .string(anyRestaurant())], effect: .read(.none))
        case 7:
            return StressRequest(useCase: .getUserProfile, params: [WireMember.userId.name: .string(anyUser().id)], effect: .read(.none))
        case 8:
            return StressRequest(useCase: .getFavoriteRestaurants, params: [WireMember.userId.name: .string(anyUser().id)], effect: .read(.favorites))
        default:
            return StressRequest(useCase: .listOrders, params: [WireMember.userId.name: .string(anyUser().id), WireMember.limit.name: 20], effect: .read(.none))
        }
    }

    private mutating func favorite() -> StressRequest {
        // One user in five saves is the hot user 0, so its cap is raced from every client.
        let user = random.chance(20) ? (index: 0, id: fixture.users[0]) : anyUser()
        let restaurant = anyRestaurant()
        let params: JSONObject = [WireMember.userId.name: .string(user.id), WireMember.restaurantId.name: .string(restaurant)]
        if !StressFixture.isSaveOnly(userIndex: user.index), random.chance(35) {
            return StressRequest(useCase: .removeFavoriteRestaurant, params: params, effect: .removeFavorite(user: user.index))
        }
        return StressRequest(useCase: .saveFavoriteRestaurant, params: params, effect: .saveFavorite(user: user.index, restaurant: restaurant))
    }

    private mutating func review() -> StressRequest {
        let restaurant: String
        switch random.index(10) {
        case 0..<4: restaurant = fixture.ownRestaurants[0]
        case 4..<6: restaurant = fixture.ownRestaurants[random.index(fixture.ownRestaurants.count)]
        default: restaurant = anyRestaurant()
        }
        serial += 1
        let params: JSONObject = [
            WireMember.userId.name: .string(anyUser().id), WireMember.restaurantId.name: .string(restaurant), WireMember.rating.name: .int(1 + random.index(5)),
            WireMember.text.name: .string("stress \(fixture.tag) c\(clientIndex) #\(serial)"),
        ]
        return StressRequest(useCase: .addReview, params: params, effect: .review(restaurant: restaurant))
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
        var lines: [JSONValue] = []
        var subtotal = 0
        for item in chosen {
            let quantity = 1 + random.index(3)
            subtotal += quantity * fixture.items[item].priceCents
            lines.append([WireMember.itemId.name: .string(fixture.items[item].id), WireMember.quantity.name: .int(quantity)])
        }
        let user = anyUser()
        var params: JSONObject = [
            WireMember.userId.name: .string(user.id), WireMember.items.name: .array(lines),
            WireMember.deliveryAddress.name: .string("\(1 + random.index(999)) Stress Way, Springfield"),
        ]
        // Discounts keep subtotal − discount ≥ 1000, so the minimum-order rule never refuses.
        if random.chance(25), subtotal > 1000 {
            params.append(key: WireMember.discountCents.name, value: .int(random.index(min(subtotal - 1000, 500) + 1)))
        }
        return StressRequest(useCase: .placeOrder, params: params, effect: .order)
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
        return StressRequest(
            useCase: .cancelOrder, params: [WireMember.orderId.name: .string(chosen.id), WireMember.userId.name: .string(chosen.userId)], effect: .cancel(orderId: chosen.id))
    }

    private mutating func restock() -> StressRequest {
        let item = random.chance(30) ? 0 : random.index(fixture.items.count)
        let quantity = 1 + random.index(10)
        return StressRequest(
            useCase: .restockMenuItem, params: [WireMember.itemId.name: .string(fixture.items[item].id), WireMember.quantity.name: .int(quantity)],
            effect: .restock(item: item, quantity: quantity))
    }

    private mutating func update() -> StressRequest {
        serial += 1
        let name = "Stress \(fixture.tag) c\(clientIndex) #\(serial)"
        return StressRequest(
            useCase: .updateUserProfile, params: [WireMember.userId.name: .string(anyUser().id), WireMember.name.name: .string(name)],
            effect: .updateProfile(name: name))
    }

    private mutating func register() -> StressRequest {
        let email = random.index(fixture.contestedEmails.count)
        // The same address in a random mix of upper and lower case: uniqueness is case-insensitive.
        var address = ""
        for character in fixture.contestedEmails[email] {
            address += random.chance(50) ? character.uppercased() : String(character)
        }
        return StressRequest(
            useCase: .registerUser, params: [WireMember.name.name: .string("Contender \(clientIndex)"), WireMember.email.name: .string(address)],
            effect: .register(email: email, address: address))
    }
}

import Domain
import Persistence
import RestaurantTesting
import Testing

/// A claim whose recorded result is the write result's description, so a replay shows exactly
/// what the binding recorded.
private func claim(_ key: String, _ request: String = "request") -> IdempotencyClaim {
    IdempotencyClaim(key: key, request: request, encodeResult: { Array("\($0)".utf8) })
}

/// The bytes `claim` records for `result`.
private func recorded(_ result: WriteResult) -> [UInt8] {
    Array("\(result)".utf8)
}

/// How a write with a claim ended: its value, a replay of a recorded result, or another error.
private enum ClaimOutcome<Value: Sendable>: Sendable {
    case wrote(Value)
    case replayed([UInt8])
    case conflict
    case failed(String)

    init(_ body: () async throws -> Value) async {
        do {
            self = .wrote(try await body())
        } catch let replay as IdempotentReplay {
            self = .replayed(replay.recordedResult)
        } catch DomainError.conflict(let reason) where reason.contains("idempotencyKey") {
            self = .conflict
        } catch {
            self = .failed("\(error)")
        }
    }
}

/// Every write of both stores binds an idempotency key in the write's own atomic step: the
/// first request that succeeds with a key binds it, a repeat of it is replayed from the binding
/// and changes nothing, another request with the key is a conflict, refusals bind nothing.
@Suite(.postgres) struct IdempotencyTests {
    @Test(arguments: Backend.allCases)
    func aRepeatedRegistrationIsReplayedAndStoresOneUser(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = User(id: UserID("u-1"), name: "Ada", email: EmailAddress("ada@example.com")!, joinedAt: world.clock.now())
        let first = await ClaimOutcome { try await world.users.insert(user, claim: claim("k1")) }
        #expect(first == .wrote(.stored(user)))
        // A retry of the same request makes a new id, as the use case would: it must not be stored.
        let retry = User(id: UserID("u-2"), name: "Ada", email: EmailAddress("ada@example.com")!, joinedAt: world.clock.now())
        let second = await ClaimOutcome { try await world.users.insert(retry, claim: claim("k1")) }
        #expect(second == .replayed(recorded(.user(user))))
        #expect(try await world.users.allUsers().map(\.id) == [user.id])
        #expect(try await world.idempotency.binding(forKey: "k1") == IdempotencyBinding(request: "request", recordedResult: recorded(.user(user))))
    }

    @Test(arguments: Backend.allCases)
    func aBoundKeyWithAnotherRequestIsAConflictAndWritesNothing(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: 10)
        let restocked = await ClaimOutcome { try await world.menu.restock(itemId: item.id, quantity: 5, claim: claim("k", "restock 5")) }
        #expect(restocked == .wrote(.restocked(item.with(stock: 15))))
        let other = await ClaimOutcome { try await world.menu.restock(itemId: item.id, quantity: 7, claim: claim("k", "restock 7")) }
        #expect(other == .conflict)
        let otherUseCase = await ClaimOutcome { try await world.favorites.remove(userId: UserID("u"), restaurantId: restaurant.id, claim: claim("k", "remove")) }
        #expect(otherUseCase == .conflict)
        #expect(try await world.menu.item(id: item.id)?.stock == 15)
    }

    @Test(arguments: Backend.allCases)
    func refusalsBindNothingSoTheKeyCanBeRetried(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let buyer = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 2000, stock: 1)
        let order = Order(
            id: OrderID("o-1"), userId: buyer.id, lines: [.init(itemId: item.id, quantity: 3, unitPriceCents: 2000)],
            currency: .usd, discountCents: 0, taxRate: world.taxRate.currentTaxRate(), deliveryAddress: "1 Way", createdAt: world.clock.now()
        )
        let refused = await ClaimOutcome { try await world.orders.place(order, claim: claim("order-key")) }
        #expect(refused == .wrote(.insufficientStock(itemId: item.id, requested: 3, available: 1)))
        #expect(try await world.idempotency.binding(forKey: "order-key") == nil)
        _ = try await world.menu.restock(itemId: item.id, quantity: 2)
        let placed = await ClaimOutcome { try await world.orders.place(order, claim: claim("order-key")) }
        #expect(placed == .wrote(.placed(order)))
        let replayed = await ClaimOutcome { try await world.orders.place(order, claim: claim("order-key")) }
        #expect(replayed == .replayed(recorded(.order(order))))
        #expect(try await world.menu.item(id: item.id)?.stock == 0)
        #expect(try await world.orders.orders(of: buyer.id, after: nil, limit: 10).count == 1)
    }

    @Test(arguments: Backend.allCases)
    func everyWriteRecordsTheResultItsUseCaseReturns(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        let restaurant = Restaurant(id: RestaurantID("r-k"), name: "Keyed", cuisine: "Thai", priceLevel: 2, address: "1 Way", latitude: 1, longitude: 2, createdAt: world.clock.now())
        try await world.restaurants.insert(restaurant, claim: claim("restaurant"))
        let item = MenuItem(id: MenuItemID("m-k"), restaurantId: restaurant.id, name: "Soup", price: Money(minorUnits: 900, currency: .usd), stock: 4)
        try await world.menu.insert(item, claim: claim("item"))
        let review = Review(id: ReviewID("v-k"), restaurantId: restaurant.id, userId: user.id, rating: 4, text: "Good", createdAt: world.clock.now())
        let reviewed = try await world.restaurants.addReview(review, claim: claim("review"))
        #expect(reviewed?.rating == 4)
        let saved = try await world.favorites.add(Favorite(userId: user.id, restaurantId: restaurant.id, savedAt: world.clock.now()), limit: 100, claim: claim("save"))
        #expect(saved == .added(count: 1))
        let removed = try await world.favorites.remove(userId: user.id, restaurantId: restaurant.id, claim: claim("remove"))
        #expect(removed == 0)
        let renamed = try await world.users.update(id: user.id, claim: claim("rename"), event: DomainEvent.userProfileUpdated) { $0.with(name: "Renamed") }
        #expect(renamed == .stored(user.with(name: "Renamed")))

        let expected: [(String, WriteResult)] = [
            ("restaurant", .restaurant(restaurant)), ("item", .menuItem(item)),
            ("review", .review(review, restaurantRating: 4)), ("save", .favoriteCount(1)), ("remove", .favoriteCount(0)),
            ("rename", .user(user.with(name: "Renamed"))),
        ]
        for (key, result) in expected {
            #expect(try await world.idempotency.binding(forKey: key)?.recordedResult == recorded(result), "\(key)")
        }
        // Replays change nothing: the review is not counted twice, the favorite not saved again.
        let again = await ClaimOutcome { try await world.restaurants.addReview(review, claim: claim("review")) }
        #expect(again == .replayed(recorded(.review(review, restaurantRating: 4))))
        #expect(try await world.restaurants.restaurant(id: restaurant.id)?.reviewCount == 1)
        let saveAgain = await ClaimOutcome { try await world.favorites.add(Favorite(userId: user.id, restaurantId: restaurant.id, savedAt: world.clock.now()), limit: 100, claim: claim("save")) }
        #expect(saveAgain == .replayed(recorded(.favoriteCount(1))))
        #expect(try await world.favorites.favorites(of: user.id).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func anUpdateThatTheChangeRefusesBindsNothing(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            _ = try await world.users.update(id: user.id, claim: claim("u-key"), event: DomainEvent.userProfileUpdated) { _ in throw Refused() }
        }
        #expect(try await world.idempotency.binding(forKey: "u-key") == nil)
    }

    @Test(arguments: Backend.allCases, [64])
    func requestsRacingWithOneKeyTakeEffectOnceAndAllGetItsResult(_ backend: Backend, racers: Int) async throws {
        let world = try await World.open(backend)
        let buyer = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 2000, stock: 1000)
        // Each racer makes its own order id, as each retry of a request would.
        let outcomes = await withTaskGroup(of: ClaimOutcome<OrderPlacementOutcome>.self) { group in
            for index in 0..<racers {
                group.addTask {
                    let order = Order(
                        id: OrderID("o-\(index)"), userId: buyer.id, lines: [.init(itemId: item.id, quantity: 2, unitPriceCents: 2000)],
                        currency: .usd, discountCents: 0, taxRate: world.taxRate.currentTaxRate(), deliveryAddress: "1 Way", createdAt: world.clock.now()
                    )
                    return await ClaimOutcome { try await world.orders.place(order, claim: claim("one-key")) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let placed = outcomes.compactMap { outcome -> Order? in
            if case .wrote(.placed(let order)) = outcome { return order }
            return nil
        }
        #expect(placed.count == 1, "\(outcomes.prefix(3))")
        let winner = try #require(placed.first)
        #expect(outcomes.filter { $0 == .replayed(recorded(.order(winner))) }.count == racers - 1)
        #expect(try await world.menu.item(id: item.id)?.stock == 998)
        #expect(try await world.orders.orders(of: buyer.id, after: nil, limit: 500).map(\.id) == [winner.id])
    }

    @Test func twoStoresOnOneFileRacingWithOneKeyWriteOnce() async throws {
        let first = try await World.open(.sqlite)
        let second = try await World.open(.sqlite, directory: first.directory)
        let restaurant = try await first.makeRestaurant()
        let item = try await first.makeItem(restaurantId: restaurant.id, stock: 0)
        let outcomes = await withTaskGroup(of: ClaimOutcome<RestockOutcome>.self) { group in
            for index in 0..<100 {
                let world = index.isMultiple(of: 2) ? first : second
                group.addTask { await ClaimOutcome { try await world.menu.restock(itemId: item.id, quantity: 3, claim: claim("shared")) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .wrote(.restocked(item.with(stock: 3))) }.count == 1)
        #expect(outcomes.filter { $0 == .replayed(recorded(.menuItem(item.with(stock: 3)))) }.count == 99)
        #expect(try await second.menu.item(id: item.id)?.stock == 3)
    }

    @Test func twoStoresOnOneDatabaseRacingWithOneKeyWriteOnce() async throws {
        let first = try await World.open(.postgres)
        let second = try await World.open(.postgres, postgres: first.postgres)
        let restaurant = try await first.makeRestaurant()
        let item = try await first.makeItem(restaurantId: restaurant.id, stock: 0)
        let outcomes = await withTaskGroup(of: ClaimOutcome<RestockOutcome>.self) { group in
            for index in 0..<100 {
                let world = index.isMultiple(of: 2) ? first : second
                group.addTask { await ClaimOutcome { try await world.menu.restock(itemId: item.id, quantity: 3, claim: claim("shared")) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .wrote(.restocked(item.with(stock: 3))) }.count == 1, "\(outcomes.filter { if case .failed = $0 { true } else { false } }.prefix(2))")
        #expect(outcomes.filter { $0 == .replayed(recorded(.menuItem(item.with(stock: 3)))) }.count == 99)
        #expect(try await second.menu.item(id: item.id)?.stock == 3)
    }

    @Test func aBindingSurvivesReopeningTheStore() async throws {
        let directory = try TemporaryDirectory()
        let user: User
        do {
            let world = try await World.open(.sqlite, directory: directory)
            user = try await world.registerUser.execute(.init(name: "Grace", email: "grace@example.com"), claim: claim("before-restart"))
            try await world.store?.close()
        }
        let reopened = try await World.open(.sqlite, directory: directory)
        let again = await ClaimOutcome { try await reopened.registerUser.execute(.init(name: "Grace", email: "grace@example.com"), claim: claim("before-restart")) }
        #expect(again == .replayed(recorded(.user(user))))
    }

    @Test(arguments: Backend.allCases)
    func bindingsOlderThanTheCutoffAreForgottenAndTheirKeysFree(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: 0)
        _ = try await world.menu.restock(itemId: item.id, quantity: 1, claim: claim("old"))
        world.clock.advance(milliseconds: IdempotencyClaim.retentionMilliseconds)
        _ = try await world.menu.restock(itemId: item.id, quantity: 1, claim: claim("young"))
        let cutoff = world.clock.now().adding(milliseconds: -IdempotencyClaim.retentionMilliseconds + 1)
        #expect(try await world.idempotency.removeBindings(madeBefore: cutoff) == 1)
        #expect(try await world.idempotency.binding(forKey: "old") == nil)
        #expect(try await world.idempotency.binding(forKey: "young") != nil)
        let reused = await ClaimOutcome { try await world.menu.restock(itemId: item.id, quantity: 1, claim: claim("old")) }
        #expect(reused == .wrote(.restocked(item.with(stock: 3))))
    }

    @Test(arguments: Backend.allCases)
    func aBoundWriteIsReplayedBeforeItsUseCaseChecksAnything(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let count = try await world.saveFavorite.execute(userId: user.id, restaurantId: restaurant.id, claim: claim("fav"))
        #expect(count == 1)
        _ = try await world.deactivateUser.execute(userId: user.id)
        // The use case itself would now refuse the inactive user; the binding answers first.
        let replay = ReplayBoundWrite(bindings: world.idempotency)
        let replayed = await ClaimOutcome { try await replay.execute(claim("fav")) }
        guard case .replayed(let bytes) = replayed, bytes == recorded(.favoriteCount(1)) else {
            Issue.record("a bound key must be replayed, got \(replayed)")
            return
        }
        let conflict = await ClaimOutcome { try await replay.execute(claim("fav", "another request")) }
        guard case .conflict = conflict else {
            Issue.record("a key bound to another request must be a conflict, got \(conflict)")
            return
        }
        let free = await ClaimOutcome { try await replay.execute(claim("unused")) }
        guard case .wrote = free else {
            Issue.record("an unbound key must let the write go ahead, got \(free)")
            return
        }
    }
}

extension ClaimOutcome: Equatable where Value: Equatable {}

import Domain
import Persistence
import RestaurantTesting
import Synchronization
import Testing

/// Hundreds of racing use-case calls against each invariant that a check-then-act across an
/// `await` would break. Every expectation is an exact count.
@Suite(.postgres) struct ConcurrentInvariantTests {
    @Test(arguments: Backend.allCases, [250, 400])
    func favoritesCapHoldsUnderConcurrentSaves(_ backend: Backend, attempts: Int) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        var restaurantIds: [RestaurantID] = []
        for index in 0..<attempts {
            restaurantIds.append(try await world.makeRestaurant(name: "R\(index)").id)
        }
        let ids = restaurantIds
        let outcomes = await race(attempts) { index in
            _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: ids[index])
        }
        let cap = Favorite.maximumPerUser
        #expect(outcomes.filter { $0 == .succeeded }.count == cap)
        #expect(outcomes.filter { $0 == .refused(.businessRule(.favoritesLimitReached(limit: cap))) }.count == attempts - cap)
        #expect(try await world.favorites.favorites(of: user.id).count == cap)
    }

    /// The favourite check answers from what the SQLite repository holds; racing saves and
    /// removes of the same favorites must leave it as the database has it, whatever order
    /// their results come back in.
    @Test(arguments: Backend.allCases)
    func racingSavesAndRemovesLeaveTheFavouriteCheckAsStored(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        var restaurantIds: [RestaurantID] = []
        for index in 0..<4 { restaurantIds.append(try await world.makeRestaurant(name: "R\(index)").id) }
        let ids = restaurantIds
        let outcomes = await race(400) { index in
            let id = ids[index % ids.count]
            if (index / ids.count) % 2 == 0 {
                _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: id)
            } else {
                _ = try await world.removeFavorite.execute(userId: user.id, restaurantId: id)
            }
        }
        #expect(outcomes.allSatisfy { $0 == .succeeded })
        let stored = Set(try await world.favorites.favorites(of: user.id).map(\.restaurantId))
        for id in ids {
            #expect(try await world.favorites.contains(userId: user.id, restaurantId: id) == stored.contains(id))
        }
        if let store = world.store {
            // And what a restart loads agrees.
            let reopened = try await SQLiteFavoriteRepository(store: store)
            for id in ids {
                #expect(try await reopened.contains(userId: user.id, restaurantId: id) == stored.contains(id))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func repeatedSavesOfOneFavoriteStoreItOnce(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let outcomes = await race(300) { _ in
            _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: restaurant.id)
        }
        #expect(outcomes.allSatisfy { $0 == .succeeded })
        #expect(try await world.favorites.favorites(of: user.id).count == 1)
    }

    @Test(arguments: Backend.allCases, [(stock: 150, orders: 300), (stock: 0, orders: 200), (stock: 299, orders: 300)])
    func stockIsNeverOversoldUnderConcurrentOrders(_ backend: Backend, sizes: (stock: Int, orders: Int)) async throws {
        let (stock, orders) = sizes
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: stock)
        var buyers: [UserID] = []
        for index in 0..<8 { buyers.append(try await world.makeUser(name: "Buyer\(index)").id) }
        let userIds = buyers
        let outcomes = await race(orders) { index in
            _ = try await world.placeOrder.execute(.init(userId: userIds[index % userIds.count], items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "2 High St"))
        }
        let sold = min(stock, orders)
        #expect(outcomes.filter { $0 == .succeeded }.count == sold)
        #expect(outcomes.filter {
            if case .refused(.businessRule(.insufficientStock(item.id, 1, _))) = $0 { return true }
            return false
        }.count == orders - sold)
        #expect(try await world.menu.item(id: item.id)?.stock == stock - sold)
    }

    @Test(arguments: Backend.allCases)
    func multiItemOrdersTakeStockAllOrNothing(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        // Every order takes one of each; the scarce item runs out first and then no order may
        // take any plentiful stock.
        let scarce = try await world.makeItem(restaurantId: restaurant.id, stock: 120)
        let plentiful = try await world.makeItem(restaurantId: restaurant.id, stock: 1000)
        let buyer = try await world.makeUser()
        let outcomes = await race(300) { _ in
            _ = try await world.placeOrder.execute(.init(userId: buyer.id, items: [.init(itemId: plentiful.id, quantity: 1), .init(itemId: scarce.id, quantity: 1)], deliveryAddress: "2 High St"))
        }
        #expect(outcomes.filter { $0 == .succeeded }.count == 120)
        #expect(try await world.menu.item(id: scarce.id)?.stock == 0)
        #expect(try await world.menu.item(id: plentiful.id)?.stock == 1000 - 120)
        let stored = try await world.orders.orders(of: buyer.id, after: nil, limit: 500)
        #expect(stored.count == 120)
    }

    @Test(arguments: Backend.allCases, [1, 7])
    func stockIsConservedWhenRestocksRaceOrders(_ backend: Backend, seed: Int) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let initial = 40
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: initial)
        let buyer = try await world.makeUser()
        // Quantities vary with the seed; restocks are interleaved with orders.
        let calls = 300
        let quantities = (0..<calls).map { 1 + ($0 * 31 + seed) % 3 }
        let isRestock = (0..<calls).map { ($0 + seed) % 4 == 0 }
        let outcomes = await race(calls) { index in
            if isRestock[index] {
                _ = try await world.restockMenuItem.execute(itemId: item.id, quantity: quantities[index])
            } else {
                _ = try await world.placeOrder.execute(.init(userId: buyer.id, items: [.init(itemId: item.id, quantity: quantities[index])], deliveryAddress: "2 High St"))
            }
        }
        let restocked = (0..<calls).filter { isRestock[$0] }.map { quantities[$0] }.reduce(0, +)
        let sold = (0..<calls).filter { !isRestock[$0] && outcomes[$0] == .succeeded }.map { quantities[$0] }.reduce(0, +)
        let left = try #require(try await world.menu.item(id: item.id)).stock
        #expect(left >= 0)
        #expect(initial + restocked == sold + left)
        #expect((0..<calls).filter { isRestock[$0] }.allSatisfy { outcomes[$0] == .succeeded })
        let orders = try await world.orders.orders(of: buyer.id, after: nil, limit: 500)
        #expect(orders.map { $0.lines[0].quantity }.reduce(0, +) == sold)
    }

    @Test(arguments: Backend.allCases)
    func racingCancelsOfOneOrderReturnItsStockOnce(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let soup = try await world.makeItem(restaurantId: restaurant.id, name: "Soup", stock: 50)
        let bread = try await world.makeItem(restaurantId: restaurant.id, name: "Bread", stock: 20)
        let buyer = try await world.makeUser()
        let order = try await world.placeOrder.execute(.init(userId: buyer.id, items: [.init(itemId: soup.id, quantity: 7), .init(itemId: bread.id, quantity: 2)], deliveryAddress: "2 High St"))
        // The restaurant, its two items, the buyer and the order: logged before the race.
        let seqBefore = try await world.loggedEvents(count: 5).last?.seq ?? 0
        let answers = Mutex<[Order]>([])
        let outcomes = await race(40) { _ in
            let answered = try await world.cancelOrder.execute(orderId: order.id, userId: buyer.id)
            answers.withLock { $0.append(answered) }
        }
        #expect(outcomes.allSatisfy { $0 == .succeeded }, "\(Set(outcomes.map { "\($0)" }))")
        // Every racer is answered the one cancelled order: the same time, whoever won.
        let cancelled = answers.withLock { $0 }
        #expect(cancelled.count == 40)
        #expect(Set(cancelled).count == 1 && cancelled.first?.status == .cancelled)
        #expect(try await world.menu.item(id: soup.id)?.stock == 50)
        #expect(try await world.menu.item(id: bread.id)?.stock == 20)
        #expect(try await world.getOrder.execute(orderId: order.id) == cancelled.first)
        // A marker after the race: once it is logged, every event of the race is too.
        let marker = try await world.makeRestaurant(name: "Marker")
        let appended = try await world.loggedEvents(count: Int(seqBefore) + 2, after: seqBefore)
        #expect(appended.map(\.type) == ["OrderCancelled", "RestaurantCreated"])
        #expect(appended.last?.key == marker.id.rawValue)
    }

    @Test(arguments: Backend.allCases, [3, 11])
    func stockIsConservedWhenOrdersCancelsAndRestocksRace(_ backend: Backend, seed: Int) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let initial = [30, 12, 5]
        var items: [MenuItem] = []
        for (index, stock) in initial.enumerated() { items.append(try await world.makeItem(restaurantId: restaurant.id, name: "Dish \(index)", stock: stock)) }
        let itemIds = items.map(\.id)
        let buyers = try await world.makeUsers(4)
        // Orders placed before the race, each to be cancelled by two racing calls.
        var earlier: [Order] = []
        for index in 0..<10 {
            let lines = [PlaceOrder.LineInput(itemId: itemIds[0], quantity: 1 + index % 2)] + (index % 3 == 0 ? [.init(itemId: itemIds[1], quantity: 1)] : [])
            earlier.append(try await world.placeOrder.execute(.init(userId: buyers[index % 4], items: lines, deliveryAddress: "2 High St")))
        }
        let toCancel = earlier
        let calls = 240
        let outcomes = await race(calls) { index in
            switch (index + seed) % 6 {
            case 0:
                _ = try await world.restockMenuItem.execute(itemId: itemIds[index % 3], quantity: 1 + index % 2)
            case 1 where index / 6 < 2 * toCancel.count:
                let order = toCancel[(index / 6) % toCancel.count]
                _ = try await world.cancelOrder.execute(orderId: order.id, userId: order.userId)
            default:
                let first = itemIds[index % 3], second = itemIds[(index + 1) % 3]
                let lines = [PlaceOrder.LineInput(itemId: first, quantity: 1 + (index * 7 + seed) % 3)] + (index % 4 == 0 ? [.init(itemId: second, quantity: 1)] : [])
                _ = try await world.placeOrder.execute(.init(userId: buyers[index % 4], items: lines, deliveryAddress: "2 High St"))
            }
        }
        #expect(!outcomes.contains { if case .failed = $0 { true } else { false } }, "\(outcomes.filter { if case .failed = $0 { true } else { false } })")
        var placed: [Order] = []
        for buyer in buyers { placed += try await world.orders.orders(of: buyer, after: nil, limit: 500) }
        #expect(Set(earlier.map(\.id)).isSubset(of: Set(placed.filter { $0.status == .cancelled }.map(\.id))), "every earlier order is cancelled")
        #expect(placed.filter { $0.status == .cancelled }.count == earlier.count, "only the earlier orders are cancelled")
        let restocked = (0..<calls).filter { ($0 + seed) % 6 == 0 }
        #expect(restocked.allSatisfy { outcomes[$0] == .succeeded })
        for (index, item) in items.enumerated() {
            func quantity(_ orders: [Order]) -> Int { orders.flatMap(\.lines).filter { $0.itemId == item.id }.map(\.quantity).reduce(0, +) }
            let sold = quantity(placed)
            let returned = quantity(placed.filter { $0.status == .cancelled })
            let restock = restocked.filter { $0 % 3 == index }.map { 1 + $0 % 2 }.reduce(0, +)
            let left = try #require(try await world.menu.item(id: item.id)).stock
            #expect(left >= 0)
            #expect(initial[index] + restock + returned == sold + left, "item \(index): \(initial[index]) + \(restock) + \(returned) vs \(sold) + \(left)")
        }
    }

    @Test(arguments: Backend.allCases)
    func racingRestocksNeverTakeStockPastTheMaximum(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let maximum = MenuItem.stocks.upperBound
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: maximum - 100)
        // Room for 33 restocks of 3: exactly 33 of the 60 succeed, the rest are refused.
        let outcomes = await race(60) { _ in _ = try await world.restockMenuItem.execute(itemId: item.id, quantity: 3) }
        #expect(outcomes.filter { $0 == .succeeded }.count == 33)
        #expect(outcomes.filter { if case .refused(.businessRule(.stockAboveMaximum)) = $0 { true } else { false } }.count == 27, "\(Set(outcomes.map { "\($0)" }))")
        #expect(try await world.menu.item(id: item.id)?.stock == maximum - 1)
    }

    @Test(arguments: Backend.allCases)
    func oneEmailRegisteredInMixedCaseWinsExactlyOnce(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let spellings = ["Sam@Example.com", "sam@example.com", "SAM@EXAMPLE.COM", "sAm@eXample.Com", "  sam@example.COM "]
        let outcomes = await race(250) { index in
            _ = try await world.registerUser.execute(.init(name: "Sam \(index)", email: spellings[index % spellings.count]))
        }
        #expect(outcomes.filter { $0 == .succeeded }.count == 1)
        #expect(outcomes.filter { $0 == .refused(.conflict(reason: "email is already registered")) }.count == 249)
        #expect(try await world.users.allUsers().count == 1)
    }

    @Test(arguments: Backend.allCases)
    func racingEmailChangesToOneAddressLeaveItUnique(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let ids = try await world.makeUsers(200)
        let outcomes = await race(ids.count) { index in
            _ = try await world.updateUserProfile.execute(.init(userId: ids[index], email: index.isMultiple(of: 2) ? "taken@example.com" : "TAKEN@example.com"))
        }
        #expect(outcomes.filter { $0 == .succeeded }.count == 1)
        let holders = try await world.users.allUsers().filter { $0.email.uniquenessKey == "taken@example.com" }
        #expect(holders.count == 1)
    }

    @Test(arguments: Backend.allCases)
    func registrationAndEmailChangeRacingForOneAddressLeaveOneHolder(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let ids = try await world.makeUsers(100)
        let outcomes = await race(200) { index in
            if index < 100 {
                _ = try await world.updateUserProfile.execute(.init(userId: ids[index], email: "Contested@example.com"))
            } else {
                _ = try await world.registerUser.execute(.init(name: "New \(index)", email: "contested@EXAMPLE.com"))
            }
        }
        #expect(outcomes.filter { $0 == .succeeded }.count == 1)
        #expect(try await world.users.allUsers().filter { $0.email.uniquenessKey == "contested@example.com" }.count == 1)
    }

    @Test(arguments: Backend.allCases, [200, 333])
    func ratingIsTheMeanOfAllReviewsUnderConcurrentReviews(_ backend: Backend, reviews: Int) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        var authors: [UserID] = []
        for index in 0..<10 { authors.append(try await world.makeUser(name: "Critic\(index)").id) }
        let userIds = authors
        let ratings = (0..<reviews).map { 1 + ($0 * 7 + reviews) % 5 }
        let outcomes = await race(reviews) { index in
            _ = try await world.addReview.execute(.init(userId: userIds[index % userIds.count], restaurantId: restaurant.id, rating: ratings[index], text: "visit \(index)"))
        }
        #expect(outcomes.allSatisfy { $0 == .succeeded })
        let stored = try #require(try await world.restaurants.restaurant(id: restaurant.id))
        #expect(stored.reviewCount == reviews)
        #expect(stored.rating == Double(ratings.reduce(0, +)) / Double(reviews))
        let page = try await world.getReviews.execute(restaurantId: restaurant.id, limit: 500)
        #expect(page.items.count == reviews)
        #expect(stored.rating == Double(page.items.map(\.rating).reduce(0, +)) / Double(page.items.count))
    }

    /// The by-id read answers from what the SQLite repository holds, which each write's commit
    /// step changes; racing registrations and profile updates (each update a new version of its
    /// row) must leave it as the database has it, whatever order their callers resume in.
    @Test(arguments: Backend.allCases)
    func racingRegistrationsAndProfileUpdatesLeaveTheHeldUsersAsStored(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let ids = try await world.makeUsers(8)
        let outcomes = await race(400) { index in
            if index.isMultiple(of: 4) {
                _ = try await world.registerUser.execute(.init(name: "New \(index)", email: "new\(index)@example.com"))
            } else {
                _ = try await world.updateUserProfile.execute(.init(userId: ids[index % ids.count], name: "Name \(index)"))
            }
        }
        #expect(outcomes.allSatisfy { $0 == .succeeded })
        let stored = try await world.users.allUsers()
        #expect(stored.count == 8 + 100)
        for user in stored {
            #expect(try await world.users.user(id: user.id) == user)
        }
        if let store = world.store {
            // And what a restart loads agrees.
            let reopened = try await SQLiteUserRepository(store: store)
            for user in stored {
                #expect(try await reopened.user(id: user.id) == user)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func deactivationRacingProfileUpdatesIsNeverUndone(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        let outcomes = await race(300) { index in
            if index == 150 {
                _ = try await world.deactivateUser.execute(userId: user.id)
            } else {
                _ = try await world.updateUserProfile.execute(.init(userId: user.id, name: "Name \(index)"))
            }
        }
        let stored = try #require(try await world.users.user(id: user.id))
        #expect(stored.isActive == false)
        #expect(outcomes[150] == .succeeded)
        // Every update either landed before the deactivation or was refused after it.
        #expect(outcomes.allSatisfy { $0 == .succeeded || $0 == .refused(.unauthorized(reason: "user \(user.id) is inactive")) })
    }
}

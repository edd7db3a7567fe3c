import Domain
import Foundation
import GRDB
@testable import Persistence
import RestaurantTesting
import Testing
import Transport

/// Runs raw SQL on the store's file through a separate connection, as another tool would.
func rawSQL(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    try queue.close()
}

/// The `EXPLAIN QUERY PLAN` lines of a query.
func queryPlan(_ path: String, _ sql: String, _ arguments: StatementArguments) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
    }
}

/// The SQLite store itself: durability across reopening, group commit, rollback of one write
/// alone, refusal of unmappable rows, backups, two stores on one file, closing, and indexes.
@Suite struct SQLiteStoreTests {
    /// An `ok` means the write survives a power cut: the connection that commits syncs the WAL
    /// at every commit (GRDB sets NORMAL, which syncs only at checkpoints, when it opens a pool).
    @Test func theConnectionThatCommitsSyncsTheLogAtEveryCommit() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let mode = try await store.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(mode == SQLiteStore.fullSynchronous)
        // The same after the store has been closed and opened again on the same file.
        try await store.close()
        let reopened = try SQLiteStore(path: store.path, events: WireEventEncoding())
        #expect(try await reopened.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == SQLiteStore.fullSynchronous)
        try await reopened.close()
    }

    /// Seeding skips the sync per commit and syncs once at the end: afterwards the log is folded
    /// into the database file and every commit syncs again, also after a load that failed.
    @Test func aBulkLoadSyncsOnceAtItsEndAndEveryCommitAfterItSyncsAgain() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let synchronous: @Sendable () async throws -> Int? = {
            try await store.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        }
        let during = try await store.bulkLoad {
            for index in 0..<50 { _ = try await world.makeUser(name: "Loaded \(index)") }
            return try await synchronous()
        }
        #expect(during == 1, "NORMAL during the load")
        #expect(try await synchronous() == SQLiteStore.fullSynchronous)
        let log = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int
        #expect(log == 0, "the checkpoint emptied the log")
        #expect(try await world.users.allUsers().count == 50)

        // A load that commits nothing (the store was seeded already) has nothing to sync: no
        // checkpoint, so the log of the write before it stays.
        _ = try await world.makeUser(name: "After the load")
        try await store.bulkLoad { () async throws -> Void in }
        let logAfterEmptyLoad = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int
        #expect((logAfterEmptyLoad ?? 0) > 0, "no checkpoint after a load that committed nothing")
        #expect(try await synchronous() == SQLiteStore.fullSynchronous)

        struct LoadFailed: Error {}
        await #expect(throws: LoadFailed.self) {
            try await store.bulkLoad { () async throws -> Int in throw LoadFailed() }
        }
        #expect(try await synchronous() == SQLiteStore.fullSynchronous)
    }

    @Test func dataSurvivesClosingAndReopeningTheStore() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let ada = try await world.makeUser(name: "Ada")
        let bob = try await world.registerUser.execute(.init(name: "Bob", email: "Bob@Example.COM"))
        let subscribed = try await world.users.update(id: bob.id) { $0.with(isActive: false, subscriptionActiveUntil: .some(noon.adding(days: 30))) }
        let trattoria = try await world.createRestaurant.execute(.init(
            name: "Trattoria Ñ", cuisine: "Italian", priceLevel: 3, address: "1 Main St", latitude: -33.5, longitude: 151.25,
            imageUrl: "https://img/1", phoneNumber: "+39 06 1234", website: "https://t.example",
            openingHours: ["Mon-Fri 11:00-22:00", "Sat \"late\""]
        ))
        let bistro = try await world.makeRestaurant(name: "Bistro")
        try await world.restaurants.insert(makeRestaurant("invalid", name: "Invalid", priceLevel: 9))
        world.clock.advance(milliseconds: 10)
        let review1 = try await world.addReview.execute(.init(userId: ada.id, restaurantId: trattoria.id, rating: 4, text: "good")).review
        world.clock.advance(milliseconds: 10)
        let review2 = try await world.addReview.execute(.init(userId: ada.id, restaurantId: trattoria.id, rating: 5, text: "better")).review
        _ = try await world.saveFavorite.execute(userId: ada.id, restaurantId: trattoria.id)
        _ = try await world.saveFavorite.execute(userId: ada.id, restaurantId: bistro.id)
        let item = try await world.makeItem(restaurantId: trattoria.id, priceCents: 1234, stock: 10)
        let order = try await world.placeOrder.execute(.init(userId: ada.id, items: [.init(itemId: item.id, quantity: 3)], discountCents: 200, deliveryAddress: "2 High St"))

        let restaurantsBefore = try await world.restaurants.restaurants(ids: [trattoria.id, bistro.id, RestaurantID("invalid")])
        let listingBefore = try await world.restaurants.list(RestaurantQuery(), after: nil, limit: 500)
        let usersBefore = try await world.users.allUsers()
        let favoritesBefore = try await world.favorites.favorites(of: ada.id)
        try await store.close()

        let reopened = try await World.open(sqliteFile: store.path, idPrefix: "w")
        #expect(reopened.sqliteRestaurants?.count == 3)
        #expect(try await reopened.users.allUsers() == usersBefore)
        #expect(try await reopened.users.user(id: bob.id).map(UserWriteOutcome.stored) == subscribed)
        #expect(try await reopened.restaurants.restaurants(ids: [trattoria.id, bistro.id, RestaurantID("invalid")]) == restaurantsBefore)
        let reloaded = try #require(try await reopened.restaurants.restaurant(id: trattoria.id))
        #expect(reloaded.rating == 4.5)
        #expect(reloaded.openingHours == ["Mon-Fri 11:00-22:00", "Sat \"late\""])
        #expect(try await reopened.restaurants.list(RestaurantQuery(), after: nil, limit: 500) == listingBefore)
        #expect(try await reopened.restaurants.list(RestaurantQuery(text: "ñ"), after: nil, limit: 500).map(\.id) == [trattoria.id])
        #expect(try await reopened.restaurants.reviews(of: trattoria.id, after: nil, limit: 500) == [review2, review1])
        #expect(try await reopened.favorites.favorites(of: ada.id) == favoritesBefore)
        #expect(try await reopened.menu.item(id: item.id) == item.with(stock: 7))
        #expect(try await reopened.orders.order(id: order.id) == order)
        #expect(try await reopened.orders.orders(of: ada.id, after: nil, limit: 500) == [order])
        try await #require(reopened.store).checkIntegrity()
        // The reopened store takes writes again, on top of what was there.
        #expect(try await reopened.registerUser.execute(.init(name: "Cy", email: "cy@example.com")).name == "Cy")
        await #expect(throws: DomainError.conflict(reason: "email is already registered")) {
            try await reopened.registerUser.execute(.init(name: "Bob 2", email: "bob@example.com"))
        }
        try await #require(reopened.store).close()
    }

    @Test func concurrentWritesShareCommits() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        #expect(store.commitStatistics == GroupCommitStatistics())
        let outcomes = await race(200) { index in
            _ = try await world.registerUser.execute(.init(name: "U\(index)", email: "u\(index)@example.com"))
        }
        #expect(outcomes.allSatisfy { $0 == .succeeded })
        #expect(try await world.users.allUsers().count == 200)
        let statistics = store.commitStatistics
        #expect(statistics.writes == 200)
        #expect(statistics.commits < 200)
        #expect(statistics.commits >= 1)
        #expect(statistics.largestBatch > 1)
        #expect(statistics.largestBatch <= 200)

        let alone = try await World.open(.sqlite)
        _ = try await alone.makeUser()
        let first = try #require(alone.store).commitStatistics
        #expect([first.commits, first.writes, first.largestBatch] == [1, 1, 1] as [Int])
        _ = try await alone.makeUser(name: "Bo")
        let second = try #require(alone.store).commitStatistics
        #expect([second.commits, second.writes, second.largestBatch] == [2, 2, 1] as [Int])
    }

    struct Refused: Error {}

    @Test func aFailingWriteRollsBackAloneAndItsBatchmatesCommit() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let restaurant = try await world.makeRestaurant()
        let buyer = try await world.makeUser(name: "Buyer")
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 1500, stock: 1000)
        var renamed: [UserID] = []
        for index in 0..<50 { renamed.append(try await world.makeUser(name: "N\(index)").id) }
        let names = renamed
        let before = store.commitStatistics

        // Kind by index % 4: 0 a good order; 1 an order by an unknown user, which takes the
        // stock and then fails on the orders row's foreign key (the savepoint must give the
        // stock back); 2 a menu item of an unknown restaurant (foreign key); 3 a user update
        // whose change throws for odd users.
        let calls = 200
        let outcomes = await race(calls) { index in
            switch index % 4 {
            case 0, 1:
                let userId = index % 4 == 0 ? buyer.id : UserID("ghost-\(index)")
                let order = Order(id: OrderID("o-\(index)"), userId: userId, lines: [.init(itemId: item.id, quantity: 2, unitPriceCents: 1500)], currency: .usd, discountCents: 0, taxCents: 0, deliveryAddress: "x", createdAt: noon)
                guard case .placed = try await world.orders.place(order) else { throw Refused() }
            case 2:
                let restaurantId = index % 8 == 2 ? restaurant.id : RestaurantID("ghost")
                try await world.menu.insert(MenuItem(id: MenuItemID("i-\(index)"), restaurantId: restaurantId, name: "Dish \(index)", price: Money(minorUnits: 100, currency: .usd), stock: 1))
            default:
                let userId = names[index / 4]
                _ = try await world.users.update(id: userId) { user in
                    guard index % 8 == 3 else { throw Refused() }
                    return user.with(name: "Renamed \(index)")
                }
            }
        }
        let succeeded = (0..<calls).filter { outcomes[$0] == .succeeded }
        let expectedToSucceed = (0..<calls).filter { [0, 2, 3].contains($0 % 8) || $0 % 8 == 4 }
        #expect(succeeded == expectedToSucceed)
        for index in 0..<calls where !succeeded.contains(index) {
            guard case .failed(let description) = outcomes[index] else {
                Issue.record("call \(index) ended \(outcomes[index])")
                continue
            }
            if index % 4 == 3 {
                #expect(description == String(describing: Refused()))
            } else {
                #expect(description.contains("FOREIGN KEY"), "call \(index): \(description)")
            }
        }
        // Good orders took their stock; failed ones gave theirs back and left no row.
        let goodOrders = (0..<calls).filter { $0 % 4 == 0 }.count
        #expect(try await world.menu.item(id: item.id)?.stock == 1000 - 2 * goodOrders)
        #expect(try await world.orders.orders(of: buyer.id, after: nil, limit: 500).count == goodOrders)
        for index in 0..<calls {
            switch index % 4 {
            case 0: #expect(try await world.orders.order(id: OrderID("o-\(index)"))?.userId == buyer.id)
            case 1: #expect(try await world.orders.order(id: OrderID("o-\(index)")) == nil)
            case 2: #expect((try await world.menu.item(id: MenuItemID("i-\(index)")) != nil) == (index % 8 == 2))
            default: break
            }
        }
        let users = try await world.users.allUsers()
        let expectedNames = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, "N\($0.offset)") })
            .merging((0..<calls).filter { $0 % 8 == 3 }.map { (names[$0 / 4], "Renamed \($0)") }) { $1 }
        #expect(users.filter { expectedNames[$0.id] != nil }.count == names.count)
        for user in users where expectedNames[user.id] != nil {
            #expect(user.name == expectedNames[user.id])
        }
        #expect(try await world.orders.orders(of: UserID("ghost-1"), after: nil, limit: 500).isEmpty)
        try await store.checkIntegrity()
        let statistics = store.commitStatistics
        #expect(statistics.writes - before.writes == calls)
        #expect(statistics.commits - before.commits < calls)
    }

    @Test func mappersRefuseUnmappableRows() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let path = store.path
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: 5)
        let order = try await world.placeOrder.execute(.init(userId: user.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "2 High St"))

        try rawSQL(path, "UPDATE menu_items SET currency = 'XXX' WHERE id = ?", [item.id.rawValue])
        await #expect(throws: StoreError.unmappable(table: "menu_items", column: "currency", value: "XXX")) {
            _ = try await world.menu.item(id: item.id)
        }
        await #expect(throws: StoreError.unmappable(table: "menu_items", column: "currency", value: "XXX")) {
            _ = try await world.menu.menu(of: restaurant.id)
        }
        await #expect(throws: StoreError.unmappable(table: "menu_items", column: "currency", value: "XXX")) {
            _ = try await world.menu.items(ids: [item.id])
        }
        try rawSQL(path, "UPDATE menu_items SET currency = 'usd' WHERE id = ?", [item.id.rawValue])
        await #expect(throws: StoreError.unmappable(table: "menu_items", column: "currency", value: "usd")) {
            _ = try await world.menu.restock(itemId: item.id, quantity: 1)
        }

        try rawSQL(path, "UPDATE orders SET currency = 'XXX' WHERE id = ?", [order.id.rawValue])
        await #expect(throws: StoreError.unmappable(table: "orders", column: "currency", value: "XXX")) {
            _ = try await world.orders.order(id: order.id)
        }
        await #expect(throws: StoreError.unmappable(table: "orders", column: "currency", value: "XXX")) {
            _ = try await world.orders.orders(of: user.id, after: nil, limit: 10)
        }

        // Updates read the user inside the write transaction; audits read every row; a user
        // repository opened on the store loads every user. All refuse the row.
        for email in ["not-an-email", "", "two@@example.com", "a b@example.com"] {
            try rawSQL(path, "UPDATE users SET email = ? WHERE id = ?", [email, user.id.rawValue])
            await #expect(throws: StoreError.unmappable(table: "users", column: "email", value: email)) {
                _ = try await world.users.update(id: user.id) { $0.with(name: "Changed") }
            }
            await #expect(throws: StoreError.unmappable(table: "users", column: "email", value: email)) {
                _ = try await world.users.allUsers()
            }
            await #expect(throws: StoreError.unmappable(table: "users", column: "email", value: email)) {
                _ = try await SQLiteUserRepository(store: store)
            }
        }
        // A bad user row created behind the repository's back is refused when first read.
        try rawSQL(path, "UPDATE users SET email = ? WHERE id = ?", [user.email.value, user.id.rawValue])
        try rawSQL(path, """
            INSERT INTO users (id, name, email, email_key, joined_at, is_active)
            VALUES ('late-user', 'Late', 'no at sign', 'no at sign', 0, 1)
            """)
        await #expect(throws: StoreError.unmappable(table: "users", column: "email", value: "no at sign")) {
            _ = try await world.users.user(id: UserID("late-user"))
        }
        try rawSQL(path, "DELETE FROM users WHERE id = 'late-user'")
        #expect(try await world.users.allUsers().map(\.id) == [user.id])

        // The repository loads every restaurant when it opens: one bad row makes opening fail.
        for hours in ["not json", "{\"a\": 1}", "[1, 2]", "null", "[\"ok\", null]"] {
            try rawSQL(path, "UPDATE restaurants SET opening_hours = ? WHERE id = ?", [hours, restaurant.id.rawValue])
            await #expect(throws: StoreError.unmappable(table: "restaurants", column: "opening_hours", value: hours)) {
                _ = try await SQLiteRestaurantRepository(store: store)
            }
        }
        // Repaired, it opens again with the stored value.
        try rawSQL(path, "UPDATE restaurants SET opening_hours = '[\"Mon 9-5\"]' WHERE id = ?", [restaurant.id.rawValue])
        let restaurants = try await SQLiteRestaurantRepository(store: store)
        #expect(try await restaurants.restaurant(id: restaurant.id)?.openingHours == ["Mon 9-5"])
        // A bad row created behind the repository's back is refused when first read.
        try rawSQL(path, """
            INSERT INTO restaurants (id, name, cuisine, price_level, address, latitude, longitude, opening_hours,
                rating_total, review_count, created_at, rank_rating, listed, name_key, cuisine_key)
            VALUES ('late', 'Late', 'Thai', 2, 'x', 1, 1, 'not json', 0, 0, 0, 0, 1, 'late', 'thai')
            """)
        await #expect(throws: StoreError.unmappable(table: "restaurants", column: "opening_hours", value: "not json")) {
            _ = try await restaurants.restaurant(id: RestaurantID("late"))
        }
    }

    @Test func backupIsAConsistentCopy() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let directory = try #require(world.directory)
        let restaurant = try await world.makeRestaurant()
        var early: [UserID] = []
        for index in 0..<20 { early.append(try await world.makeUser(name: "Early\(index)").id) }
        let author = early[0]
        let acknowledged = Collected<UserID>()
        let reviewed = Collected<ReviewID>()

        let copyPath = directory.path + "/copy.sqlite"
        let acknowledgedBeforeBackup = try await withThrowingTaskGroup(of: [UserID].self) { group in
            for index in 0..<150 {
                group.addTask {
                    let user = try await world.registerUser.execute(.init(name: "Racer\(index)", email: "racer\(index)@example.com"))
                    acknowledged.append(user.id)
                    let review = try await world.addReview.execute(.init(userId: author, restaurantId: restaurant.id, rating: 1 + index % 5, text: "r\(index)"))
                    reviewed.append(review.review.id)
                    return []
                }
            }
            group.addTask {
                let snapshot = acknowledged.all
                try await store.backup(to: copyPath)
                return snapshot
            }
            var snapshot: [UserID] = []
            for try await ids in group { snapshot += ids }
            return snapshot
        }
        #expect(acknowledged.all.count == 150)
        #expect(FileManager.default.fileExists(atPath: copyPath))
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).contains { $0.contains(".partial") })

        let copy = try await World.open(sqliteFile: copyPath, idPrefix: "w")
        try await #require(copy.store).checkIntegrity()
        let copiedUsers = Set(try await copy.users.allUsers().map(\.id))
        #expect(copiedUsers.isSuperset(of: early))
        #expect(copiedUsers.isSuperset(of: acknowledgedBeforeBackup))
        #expect(copiedUsers.isSubset(of: Set(early + acknowledged.all + [author])))
        // Each review and its rating totals were committed together, so the copy agrees.
        let copiedRestaurant = try #require(try await copy.restaurants.restaurant(id: restaurant.id))
        let copiedReviews = try await copy.restaurants.reviews(of: restaurant.id, after: nil, limit: 500)
        #expect(copiedRestaurant.reviewCount == copiedReviews.count)
        #expect(copiedRestaurant.ratingTotal == copiedReviews.map(\.rating).reduce(0, +))
        #expect(Set(copiedReviews.map(\.id)).isSubset(of: Set(reviewed.all)))
        try await #require(copy.store).close()

        // The original holds everything.
        #expect(Set(try await world.users.allUsers().map(\.id)) == Set(early + acknowledged.all))

        // Backing up onto an existing file fails and leaves the file untouched.
        let existing = directory.path + "/existing.txt"
        let precious = Data("keep me".utf8)
        try precious.write(to: URL(fileURLWithPath: existing))
        await #expect(throws: (any Error).self) { try await store.backup(to: existing) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == precious)
        let copyBytes = try Data(contentsOf: URL(fileURLWithPath: copyPath))
        await #expect(throws: (any Error).self) { try await store.backup(to: copyPath) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copyPath)) == copyBytes)
    }

    @Test func favoritesCapHoldsAcrossTwoStoresOnOneFile() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let second = try await World.open(sqliteFile: store.path, idPrefix: "second")
        let user = try await world.makeUser()
        var restaurantIds: [RestaurantID] = []
        for index in 0..<250 { restaurantIds.append(try await world.makeRestaurant(name: "R\(index)").id) }
        let ids = restaurantIds
        let cap = Favorite.maximumPerUser
        let saves = await race(ids.count) { index in
            if index.isMultiple(of: 2) {
                _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: ids[index])
            } else {
                _ = try await second.saveFavorite.execute(userId: user.id, restaurantId: ids[index])
            }
        }
        #expect(saves.filter { $0 == .succeeded }.count == cap)
        #expect(saves.filter { $0 == .refused(.businessRule(.favoritesLimitReached(limit: cap))) }.count == ids.count - cap)
        #expect(try await world.favorites.favorites(of: user.id).count == cap)
        #expect(try await second.favorites.favorites(of: user.id).count == cap)

        // Stock of one item, ordered through both stores.
        let restaurant = try await world.makeRestaurant()
        let stock = 150
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: stock)
        let buyer = try await world.makeUser(name: "Buyer")
        let orders = await race(300) { index in
            let input = PlaceOrder.Input(userId: buyer.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "2 High St")
            if index.isMultiple(of: 2) {
                _ = try await world.placeOrder.execute(input)
            } else {
                _ = try await second.placeOrder.execute(input)
            }
        }
        #expect(orders.filter { $0 == .succeeded }.count == stock)
        #expect(orders.filter {
            if case .refused(.businessRule(.insufficientStock(item.id, 1, 0))) = $0 { return true }
            return false
        }.count == 300 - stock)
        #expect(try await world.menu.item(id: item.id)?.stock == 0)
        #expect(try await second.menu.item(id: item.id)?.stock == 0)
        #expect(try await second.orders.orders(of: buyer.id, after: nil, limit: 500).count == stock)

        // One e-mail address in mixed case, registered through both stores.
        let spellings = ["Sam@Example.com", "sam@example.com", "SAM@EXAMPLE.COM", "sAm@eXample.Com"]
        let registrations = await race(200) { index in
            let input = RegisterUser.Input(name: "Sam \(index)", email: spellings[index % spellings.count])
            if index % 3 == 0 {
                _ = try await world.registerUser.execute(input)
            } else {
                _ = try await second.registerUser.execute(input)
            }
        }
        #expect(registrations.filter { $0 == .succeeded }.count == 1)
        #expect(registrations.filter { $0 == .refused(.conflict(reason: "email is already registered")) }.count == 199)
        #expect(try await second.users.allUsers().filter { $0.email.uniquenessKey == "sam@example.com" }.count == 1)
        try await store.checkIntegrity()
        try await #require(second.store).close()
    }

    /// A filter so selective that the walk through the held ranking runs out of its budget before
    /// the page is full continues in SQL exactly where the walk stopped: every match, in order,
    /// none twice, over pages.
    @Test func aSelectiveFilterContinuesInSQLWhereTheWalkStopped() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let common = SQLiteRestaurantRepository.walkBudget(limit: 2) + 100
        try await store.bulkLoad {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 0..<common {
                    // Rated 4.5 down to 0.5, so the rare ones (rated 0) come after every common one.
                    let rating = 1 + number % 9
                    let restaurant = makeRestaurant(String(format: "r-%06d", number), name: "Common \(number)", cuisine: "Diner", ratingTotal: rating, reviewCount: 2)
                    group.addTask { try await world.restaurants.insert(restaurant) }
                }
                for number in 0..<5 {
                    let restaurant = makeRestaurant("r-rare-\(number)", name: "Rare \(number)", cuisine: "Rare")
                    group.addTask { try await world.restaurants.insert(restaurant) }
                }
                try await group.waitForAll()
            }
        }
        let rare = RestaurantQuery(cuisine: "rare")
        #expect(try await world.restaurants.list(rare, after: nil, limit: 10).map(\.name) == (0..<5).map { "Rare \($0)" })
        #expect(try await listAllPages(world.restaurants, rare, limit: 2).map(\.name) == (0..<5).map { "Rare \($0)" })
        // The unfiltered listing walks memory only, in the SQL order.
        let first = try await world.restaurants.list(RestaurantQuery(), after: nil, limit: 3)
        #expect(first.map(\.rating) == [4.5, 4.5, 4.5])
        let topNames = (0..<common).filter { $0 % 9 == 8 }.map { "Common \($0)" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(first.map(\.name) == Array(topNames.prefix(3)))
    }

    /// A review reorders the held ranking in its commit step: the next listing (and its filters)
    /// shows the new rating. The held copies assume the store is its file's only writer (svcd
    /// holds its data directory's lock); what another store wrote is seen by a store opened after.
    @Test func aReviewIsRankedByTheNextListingAndAnotherStoresByTheNextOpening() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let author = try await world.makeUser()
        let first = try await world.makeRestaurant(name: "Alpha")
        let second = try await world.makeRestaurant(name: "Beta")
        let third = try await world.makeRestaurant(name: "Gamma")
        #expect(try await world.restaurants.list(RestaurantQuery(), after: nil, limit: 10).map(\.id) == [first.id, second.id, third.id])
        let review = Review(id: ReviewID("v-1"), restaurantId: second.id, userId: author.id, rating: 4, text: "", createdAt: noon)
        #expect(try await world.restaurants.addReview(review)?.rating == 4)

        let listed = try await world.restaurants.list(RestaurantQuery(), after: nil, limit: 10)
        #expect(listed.map(\.id) == [second.id, first.id, third.id])
        #expect(listed.map(\.rating) == [4, 0, 0])
        #expect(try await world.restaurants.list(RestaurantQuery(minRating: 4), after: nil, limit: 10).map(\.id) == [second.id])
        let page = try await ListRestaurants(restaurants: world.restaurants).execute(.init(minRating: 3.5))
        #expect(page.items.map(\.id) == [second.id])
        #expect(page.items.first?.reviewCount == 1)
        // A page after the reviewed one continues in the new order.
        #expect(try await world.restaurants.list(RestaurantQuery(), after: RestaurantRankKey(listed[0]), limit: 10).map(\.id) == [first.id, third.id])

        let other = try await World.open(sqliteFile: store.path, idPrefix: "other")
        let another = Review(id: ReviewID("v-2"), restaurantId: third.id, userId: author.id, rating: 5, text: "", createdAt: noon)
        #expect(try await other.restaurants.addReview(another)?.rating == 5)
        #expect(try await world.restaurants.reviews(of: third.id, after: nil, limit: 10) == [another])
        let reopened = try await World.open(sqliteFile: store.path, idPrefix: "reopened")
        #expect(try await reopened.restaurants.list(RestaurantQuery(), after: nil, limit: 10).map(\.id) == [third.id, second.id, first.id])
        try await #require(other.store).close()
        try await #require(reopened.store).close()
    }

    /// Search and cuisine keys are stored canonically decomposed, so precomposed and decomposed
    /// spellings find each other, also after the store is reopened.
    @Test func precomposedAndDecomposedSpellingsFindEachOtherAfterReopening() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        try await world.restaurants.insert(makeRestaurant("d-1", name: "Cafe\u{301} Noir", cuisine: "Cre\u{300}perie", ratingTotal: 5, reviewCount: 1))
        try await world.restaurants.insert(makeRestaurant("d-2", name: "Caf\u{E9} Bleu", cuisine: "Cr\u{E8}perie"))
        try await store.close()

        let reopened = try await World.open(sqliteFile: store.path, idPrefix: "w")
        let expectations: [(text: String, ids: [String])] = [("CAFÉ", ["d-1", "d-2"]), ("cafe\u{301}", ["d-1", "d-2"]), ("é", ["d-1", "d-2"]), ("fé b", ["d-2"]), ("cafe", [])]
        for (text, ids) in expectations {
            #expect(try await reopened.restaurants.list(RestaurantQuery(text: text), after: nil, limit: 10).map(\.id.rawValue) == ids, "query \(text)")
        }
        #expect(try await reopened.restaurants.list(RestaurantQuery(cuisine: "CRÈPERIE"), after: nil, limit: 10).map(\.id.rawValue) == ["d-1", "d-2"])
        try await #require(reopened.store).checkIntegrity()
        try await #require(reopened.store).close()
    }

    /// Every commit runs on the store's one commit thread, whatever the number of concurrent
    /// writes (libdispatch's workers, which come and go with the load, take no part), and the
    /// thread ends when the store is closed, or when a store that was never closed is gone.
    @Test func commitsRunOnOneThreadThatEndsWithTheStore() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/store.sqlite", events: nil)
        let threads = try await withThrowingTaskGroup(of: UInt.self) { group in
            for _ in 0..<200 {
                group.addTask { try await store.write { _ in UInt(pthread_self()) } }
            }
            return try await group.reduce(into: Set<UInt>()) { $0.insert($1) }
        }
        #expect(threads.count == 1)
        #expect(store.commitStatistics.writes == 200)
        #expect(store.commitThread.isRunning)
        try await store.close()
        #expect(!store.commitThread.isRunning, "close returns after the thread has ended")

        // Dropped without close: the thread ends too (a test's store, a failed start-up).
        let dropped = try await Self.commitThreadOfADroppedStore(at: directory.path + "/dropped.sqlite")
        let deadline = ContinuousClock.now + .seconds(10)
        while dropped.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(!dropped.isRunning)
    }

    /// Opens a store at `path`, commits one write and lets the store go; returns its commit
    /// thread's life.
    private static func commitThreadOfADroppedStore(at path: String) async throws -> CommitThreadLife {
        let store = try SQLiteStore(path: path, events: nil)
        try await store.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        return store.commitThread
    }

    @Test func closedStoreRefusesWrites() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: 5)
        let before = store.commitStatistics
        try await store.close()

        await #expect(throws: StoreError.closed) {
            _ = try await world.users.insert(User(id: UserID("late"), name: "Late", email: EmailAddress("late@example.com")!, joinedAt: noon))
        }
        await #expect(throws: StoreError.closed) { _ = try await world.users.update(id: user.id) { $0.with(name: "X") } }
        await #expect(throws: StoreError.closed) { try await world.restaurants.insert(makeRestaurant("late", name: "Late")) }
        await #expect(throws: StoreError.closed) {
            _ = try await world.restaurants.addReview(Review(id: ReviewID("v"), restaurantId: restaurant.id, userId: user.id, rating: 5, text: "", createdAt: noon))
        }
        await #expect(throws: StoreError.closed) {
            _ = try await world.favorites.add(Favorite(userId: user.id, restaurantId: restaurant.id, savedAt: noon), limit: 100)
        }
        await #expect(throws: StoreError.closed) { _ = try await world.favorites.remove(userId: user.id, restaurantId: restaurant.id) }
        await #expect(throws: StoreError.closed) { _ = try await world.menu.restock(itemId: item.id, quantity: 1) }
        await #expect(throws: StoreError.closed) {
            _ = try await world.orders.place(Order(id: OrderID("o"), userId: user.id, lines: [.init(itemId: item.id, quantity: 1, unitPriceCents: 1500)], currency: .usd, discountCents: 0, taxCents: 0, deliveryAddress: "x", createdAt: noon))
        }
        await #expect(throws: StoreError.closed) { _ = try await world.registerUser.execute(.init(name: "Late", email: "late2@example.com")) }
        #expect(store.commitStatistics == before)
        // Nothing was written: reopened, the file holds only what came before the close.
        let reopened = try await World.open(sqliteFile: store.path, idPrefix: "w")
        #expect(try await reopened.users.allUsers().map(\.id) == [user.id])
        #expect(reopened.sqliteRestaurants?.count == 1)
        #expect(try await reopened.menu.item(id: item.id)?.stock == 5)
        try await #require(reopened.store).close()
    }

    @Test(.timeLimit(.minutes(1)), arguments: [0, 1, 25, 100, 199])
    func closingWhileWritesRunAnswersEveryWriteAndKeepsExactlyTheAcknowledgedOnes(closeAt: Int) async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let closed = String(describing: StoreError.closed)
        let outcomes = await race(200) { index in
            if index == closeAt { try await store.close() }
            _ = try await world.registerUser.execute(.init(name: "U\(index)", email: "u\(index)@example.com"))
        }
        // Every write was answered: stored, or refused because the store was closed.
        #expect(outcomes.allSatisfy { $0 == .succeeded || $0 == .failed(closed) }, "\(outcomes.filter { $0 != .succeeded && $0 != .failed(closed) })")
        #expect(outcomes[closeAt] == .failed(closed))
        let acknowledged = (0..<200).filter { outcomes[$0] == .succeeded }.map { "u\($0)@example.com" }
        let reopened = try await World.open(sqliteFile: store.path, idPrefix: "w")
        #expect(try await reopened.users.allUsers().map(\.email.value).sorted() == acknowledged.sorted())
        try await #require(reopened.store).checkIntegrity()
        try await #require(reopened.store).close()
    }

    /// The statements the repositories run, copied from the sources with representative
    /// arguments. Each must be served by an index.
    static let listingStatements: [(name: String, sql: String, arguments: StatementArguments, sorts: Bool)] = [
        ("list", "SELECT r.id, r.rank_rating, r.name FROM restaurants r WHERE r.listed = 1 ORDER BY r.rank_rating, r.name, r.id LIMIT ?", [51], false),
        ("list after", "SELECT r.id, r.rank_rating, r.name FROM restaurants r WHERE r.listed = 1 AND (r.rank_rating, r.name, r.id) > (?, ?, ?) ORDER BY r.rank_rating, r.name, r.id LIMIT ?", [-4.5, "Bistro", "r-1", 51], false),
        ("list cuisine", "SELECT r.id, r.rank_rating, r.name FROM restaurants r WHERE r.listed = 1 AND r.cuisine_key = ? ORDER BY r.rank_rating, r.name, r.id LIMIT ?", ["italian", 51], false),
        ("list cuisine after", "SELECT r.id, r.rank_rating, r.name FROM restaurants r WHERE r.listed = 1 AND r.cuisine_key = ? AND (r.rank_rating, r.name, r.id) > (?, ?, ?) ORDER BY r.rank_rating, r.name, r.id LIMIT ?", ["italian", -4.5, "Bistro", "r-1", 51], false),
        ("list min rating", "SELECT r.id, r.rank_rating, r.name FROM restaurants r WHERE r.listed = 1 AND r.rank_rating <= ? ORDER BY r.rank_rating, r.name, r.id LIMIT ?", [-4.0, 51], false),
        ("list max price", "SELECT r.id, r.rank_rating, r.name FROM restaurants r WHERE r.listed = 1 AND r.price_level <= ? ORDER BY r.rank_rating, r.name, r.id LIMIT ?", [2, 51], false),
        ("list all filters", "SELECT r.id, r.rank_rating, r.name FROM restaurants r WHERE r.listed = 1 AND r.cuisine_key = ? AND r.rank_rating <= ? AND r.price_level <= ? ORDER BY r.rank_rating, r.name, r.id LIMIT ?", ["italian", -4.0, 2, 51], false),
        ("search short", "SELECT r.id, r.rank_rating, r.name FROM restaurants r WHERE r.listed = 1 AND (instr(r.name_key, ?) > 0 OR instr(r.cuisine_key, ?) > 0) ORDER BY r.rank_rating, r.name, r.id LIMIT ?", ["ca", "ca", 50], false),
        ("search trigram", "SELECT r.id, r.rank_rating, r.name FROM restaurant_search s CROSS JOIN restaurants r ON r.number = s.rowid WHERE r.listed = 1 AND restaurant_search MATCH ? ORDER BY r.rank_rating, r.name, r.id LIMIT ?", ["\"caf\"", 50], true),
        ("feed", "SELECT id FROM restaurants WHERE listed = 1 ORDER BY created_at DESC, id DESC LIMIT ?", [51], false),
        ("feed after", "SELECT id FROM restaurants WHERE listed = 1 AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?", [0, "r-1", 51], false),
        ("reviews", "SELECT id, restaurant_id, user_id, rating, text, created_at FROM reviews WHERE restaurant_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", ["r-1", 51], false),
        ("reviews after", "SELECT id, restaurant_id, user_id, rating, text, created_at FROM reviews WHERE restaurant_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?", ["r-1", 0, "v-1", 51], false),
        ("review count", SQLiteRestaurantRepository.countRecentReviews, ["r-1", 0, 20], false),
        ("orders", "SELECT id, user_id, currency, discount_minor_units, tax_minor_units, delivery_address, created_at FROM orders WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", ["u-1", 51], false),
        ("orders after", "SELECT id, user_id, currency, discount_minor_units, tax_minor_units, delivery_address, created_at FROM orders WHERE user_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?", ["u-1", 0, "o-1", 51], false),
        ("order lines", "SELECT order_id, position, item_id, quantity, unit_price_minor_units FROM order_lines WHERE order_id IN (?,?) ORDER BY order_id, position", ["o-1", "o-2"], false),
        ("favorites", "SELECT user_id, restaurant_id, saved_at FROM favorites WHERE user_id = ? ORDER BY saved_at DESC, number DESC", ["u-1"], false),
        ("favorite count", "SELECT count(*) FROM favorites WHERE user_id = ?", ["u-1"], false),
        ("favorite exists", "SELECT 1 FROM favorites WHERE user_id = ? AND restaurant_id = ?", ["u-1", "r-1"], false),
        ("menu", "SELECT id, restaurant_id, name, price_minor_units, currency, stock FROM menu_items WHERE restaurant_id = ? ORDER BY name, id", ["r-1"], false),
        ("email taken", "SELECT 1 FROM users WHERE email_key = ? AND id <> ?", ["a@example.com", "u-1"], false),
    ]

    @Test func listingQueriesUseIndexes() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        // Some rows, so the plans are those of a populated database.
        let user = try await world.makeUser()
        for index in 0..<30 {
            let restaurant = try await world.makeRestaurant(name: "Café \(index)")
            _ = try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: 1 + index % 5, text: ""))
            _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: restaurant.id)
        }
        for (name, sql, arguments, sorts) in Self.listingStatements {
            let plan = try queryPlan(store.path, sql, arguments)
            #expect(!plan.isEmpty, "\(name)")
            #expect(plan.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") || $0.contains("VIRTUAL TABLE") || $0.contains("USING PRIMARY KEY") || $0.contains("USING INTEGER PRIMARY KEY") }, "\(name): \(plan)")
            // A SCAN is a full pass; only an index walk (or the FTS index) is acceptable, and a
            // scan of a bounded subquery's rows (the recent-review count's).
            #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("INDEX") && !$0.hasPrefix("SCAN (subquery") }, "\(name): \(plan)")
            #expect(!plan.contains { $0.contains("SCAN restaurants") && !$0.contains("INDEX") }, "\(name): \(plan)")
            if !sorts {
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(name): \(plan)")
            }
        }
    }
}

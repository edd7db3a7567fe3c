import Domain
import Foundation
@testable import Persistence
import RestaurantTesting
import Testing
import Transport
import WireJSON

/// The event log of every store: one event per write that changed something, in the write's own
/// atomic step, numbered 1, 2, 3, … without gaps in commit order; nothing for refusals, no-ops,
/// replays or seeding; read by seq, filtered by type, pruned from the oldest end.
@Suite(.postgres) struct EventLogTests {
    @Test(arguments: Backend.allCases)
    func everyChangingWriteAppendsOneEventCarryingItsResult(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let ada = try await world.makeUser(name: "Ada")
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 600, stock: 10)
        let saved = try await world.saveFavorite.execute(userId: ada.id, restaurantId: restaurant.id)
        let renamed = try await world.updateUserProfile.execute(.init(userId: ada.id, name: "Ada King"))
        let review = try await world.addReview.execute(.init(userId: ada.id, restaurantId: restaurant.id, rating: 4, text: "good"))
        let restocked = try await world.restockMenuItem.execute(itemId: item.id, quantity: 5)
        let order = try await world.placeOrder.execute(.init(userId: ada.id, items: [.init(itemId: item.id, quantity: 3)], deliveryAddress: "1 Elm St"))
        let cancelled = try await world.cancelOrder.execute(orderId: order.id, userId: ada.id)
        let removed = try await world.removeFavorite.execute(userId: ada.id, restaurantId: restaurant.id)
        let subscribed = try await world.startSubscription.execute(userId: ada.id, months: 1)
        let deactivated = try await world.deactivateUser.execute(userId: ada.id)

        let expected: [DomainEvent] = [
            .userRegistered(ada), .restaurantCreated(restaurant), .menuItemAdded(item),
            .favoriteSaved(userId: ada.id, restaurantId: restaurant.id, favoriteCount: saved),
            .userProfileUpdated(renamed), .reviewAdded(review.review, restaurantRating: review.restaurantRating),
            .menuItemRestocked(restocked), .orderPlaced(order, stock: [ItemStock(itemId: item.id, stock: 12)]),
            .orderCancelled(cancelled, stock: [ItemStock(itemId: item.id, stock: 15)]),
            .favoriteRemoved(userId: ada.id, restaurantId: restaurant.id, favoriteCount: removed),
            .subscriptionStarted(subscribed), .userDeactivated(deactivated),
        ]
        let logged = try await world.loggedEvents(count: expected.count)
        #expect(logged.map(\.seq) == Array(1...Int64(expected.count)))
        let encoding = WireEventEncoding()
        for (event, expectation) in zip(logged, expected) {
            let encoded = encoding.encode(expectation)
            #expect(event.type == encoded.type)
            #expect(event.key == expectation.key)
            #expect(try JSONParser.parse(event.data) == JSONParser.parse(encoded.data), "seq \(event.seq), \(event.type)")
            #expect(event.at == World.start)
        }
    }

    @Test(arguments: Backend.allCases)
    func refusalsNoOpsAndReplaysAppendNothing(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let ada = try await world.makeUser(name: "Ada", email: "ada@example.com")
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: 2)
        _ = try await world.saveFavorite.execute(userId: ada.id, restaurantId: restaurant.id)
        let cancelled = try await world.placeOrder.execute(.init(userId: ada.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "x"))
        _ = try await world.cancelOrder.execute(orderId: cancelled.id, userId: ada.id)
        let placed = try await world.placeOrder.execute(.init(userId: ada.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "x"))
        let before = try await world.loggedEvents(count: 7)
        world.advance(minutes: 31)

        // No-ops: each succeeds and stores nothing new.
        _ = try await world.saveFavorite.execute(userId: ada.id, restaurantId: restaurant.id)
        _ = try await world.removeFavorite.execute(userId: ada.id, restaurantId: RestaurantID(try await world.makeRestaurantWithoutEvent()))
        _ = try await world.updateUserProfile.execute(.init(userId: ada.id, name: "Ada"))
        _ = try await world.updateUserProfile.execute(.init(userId: ada.id))
        _ = try await world.cancelOrder.execute(orderId: cancelled.id, userId: ada.id)
        // Refusals.
        await #expect(throws: DomainError.self) { _ = try await world.registerUser.execute(.init(name: "Twin", email: "ADA@example.com")) }
        await #expect(throws: DomainError.self) {
            _ = try await world.placeOrder.execute(.init(userId: ada.id, items: [.init(itemId: item.id, quantity: 2)], deliveryAddress: "x"))
        }
        await #expect(throws: DomainError.self) { _ = try await world.cancelOrder.execute(orderId: placed.id, userId: ada.id) }
        await #expect(throws: DomainError.self) { _ = try await world.restockMenuItem.execute(itemId: item.id, quantity: MenuItem.stocks.upperBound) }
        // A replay of a bound key.
        let claim = IdempotencyClaim(key: "k", request: "deactivate ada") { _ in Array("{}".utf8) }
        _ = try await world.deactivateUser.execute(userId: ada.id, claim: claim)
        await #expect(throws: IdempotentReplay.self) { try await world.useCases.replayBoundWrite.execute(claim) }
        await #expect(throws: IdempotentReplay.self) { _ = try await world.deactivateUser.execute(userId: ada.id, claim: claim) }
        // Deactivating an inactive user.
        _ = try await world.deactivateUser.execute(userId: ada.id)

        // A marker: the one change after the deactivation.
        let marker = try await world.makeRestaurant(name: "Marker")
        let after = try await world.loggedEvents(count: before.count + 2)
        #expect(after.count == before.count + 2)
        #expect(after.dropFirst(before.count).map(\.type) == ["UserDeactivated", "RestaurantCreated"])
        #expect(after.last?.key == marker.id.rawValue)
        #expect(after.map(\.seq) == Array(1...Int64(after.count)))
    }

    @Test(arguments: Backend.allCases)
    func writesMadeWhileRecordingIsSuspendedAppendNothing(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        try await EventRecording.suspended {
            let user = try await world.makeUser()
            let restaurant = try await world.makeRestaurant()
            _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: restaurant.id)
        }
        let marker = try await world.makeUser(name: "Marker")
        let logged = try await world.loggedEvents(count: 1)
        #expect(logged.map(\.key) == [marker.id.rawValue])
        #expect(logged.map(\.seq) == [1])
    }

    /// Racing writers of every kind, changing or not: exactly one event per change, seq 1…K.
    @Test(arguments: Backend.allCases)
    func racingWritersAppendExactlyOneEventPerChangeWithoutGaps(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let users = try await world.makeUsers(6)
        var restaurantIds: [RestaurantID] = []
        for index in 0..<4 { restaurantIds.append(try await world.makeRestaurant(name: "R\(index)").id) }
        let item = try await world.makeItem(restaurantId: restaurantIds[0], priceCents: 1000, stock: 40)
        let setUp = try await world.loggedEvents(count: users.count + restaurantIds.count + 1).count
        let restaurants = restaurantIds
        let changes = Collected<String>()
        let outcomes = await race(300) { index in
            let user = users[index % users.count], restaurant = restaurants[index % restaurants.count]
            switch index % 5 {
            case 0:
                let outcome = try await world.favorites.add(Favorite(userId: user, restaurantId: restaurant, savedAt: world.now), limit: 100)
                if case .added = outcome { changes.append("save") }
            case 1:
                // Half of these rename the user to the name they have: a no-op.
                _ = try await world.users.update(id: user) { $0.with(name: index % 4 == 1 ? "Even" : "Odd") }
            case 2:
                do {
                    _ = try await world.placeOrder.execute(.init(userId: user, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "x"))
                    changes.append("order")
                } catch DomainError.businessRule {}
            case 3:
                _ = try await world.restockMenuItem.execute(itemId: item.id, quantity: 1)
                changes.append("restock")
            default:
                _ = try await world.createRestaurant.execute(.init(name: "New \(index)", cuisine: "Thai", priceLevel: 1, address: "x", latitude: 0, longitude: 0))
                changes.append("create")
            }
        }
        #expect(outcomes.allSatisfy { $0 == .succeeded }, "\(outcomes.filter { $0 != .succeeded }.prefix(3))")
        let logged = try await world.eventsBeforeMarker()
        #expect(logged.map(\.seq) == Array(1...Int64(logged.count)), "one sequence without gaps")
        let counted = logged.dropFirst(setUp)
        #expect(counted.count == changes.all.count + counted.filter { $0.type == "UserProfileUpdated" }.count)
        #expect(counted.filter { $0.type == "FavoriteSaved" }.count == changes.all.filter { $0 == "save" }.count)
        #expect(counted.filter { $0.type == "OrderPlaced" }.count == changes.all.filter { $0 == "order" }.count)
        #expect(counted.filter { $0.type == "MenuItemRestocked" }.count == changes.all.filter { $0 == "restock" }.count)
        #expect(counted.filter { $0.type == "RestaurantCreated" }.count == changes.all.filter { $0 == "create" }.count)
        // A rename to the name the user has changes nothing: of one user, consecutive events
        // name different names (one missing or one too many would repeat a name), the first
        // differs from the name registered, and the last is the name stored.
        for (index, user) in users.enumerated() {
            let names = try counted.filter { $0.type == "UserProfileUpdated" && $0.key == user.rawValue }.map { try Self.userName($0) }
            #expect(zip(["U\(index)"] + names, names).allSatisfy { $0 != $1 }, "\(user): \(names)")
            #expect(names.last == (try await world.users.user(id: user))?.name, "\(user): \(names)")
        }
        // Stock conserved in the events' own numbers: every event's stock, in seq order, is the
        // stock left by the one before it.
        var stock = item.stock
        for event in counted where event.key == item.id.rawValue || event.type == "OrderPlaced" {
            let data = try JSONParser.parse(event.data)
            if event.type == "OrderPlaced" {
                let left = try #require(data["stock"]?.arrayValue?.first?["stock"]?.intValue)
                #expect(left == stock - 1, "seq \(event.seq)")
                stock = left
            } else {
                let left = try #require(data["item"]?["stock"]?.intValue)
                #expect(left == stock + 1, "seq \(event.seq)")
                stock = left
            }
        }
        #expect(stock == (try await world.stock(of: item.id)))
    }

    /// Registrations racing (on PostgreSQL they go together in shared statements, which append
    /// the events of the rows they insert), a fifth of them for addresses taken in another case:
    /// one event per stored user, none for a refused one.
    @Test(arguments: Backend.allCases)
    func racingRegistrationsAppendOneEventPerStoredUser(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let stored = Collected<String>()
        let outcomes = await race(250) { index in
            let email = index % 5 == 4 ? "TWIN\(index - 1)@example.com" : "twin\(index)@example.com"
            stored.append(try await world.registerUser.execute(.init(name: "R\(index)", email: email)).id.rawValue)
        }
        #expect(outcomes.filter { $0 == .succeeded }.count == 200)
        let logged = try await world.eventsBeforeMarker()
        #expect(logged.count == 200 && logged.areConsecutiveFromOne)
        #expect(Set(logged.map(\.key)) == Set(stored.all))
    }

    /// Of one key, seq order is commit order: racing saves for one user commit one after another
    /// (the cap is counted in the same step), so their counts, in seq order, go 1, 2, … 100.
    @Test(arguments: Backend.allCases)
    func eventsOfOneKeyAreInCommitOrder(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        var restaurantIds: [RestaurantID] = []
        for index in 0..<150 { restaurantIds.append(try await world.makeRestaurant(name: "R\(index)").id) }
        let ids = restaurantIds
        _ = await race(ids.count) { index in
            _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: ids[index])
        }
        let logged = try await world.loggedEvents(count: 1 + ids.count + Favorite.maximumPerUser)
        let counts = try logged.filter { $0.type == "FavoriteSaved" }.map { try #require(JSONParser.parse($0.data)["favoriteCount"]?.intValue) }
        #expect(counts == Array(1...Favorite.maximumPerUser))
    }

    @Test(arguments: Backend.allCases)
    func theTypesFilterAppliesBeforeTheLimit(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        for index in 0..<5 {
            _ = try await world.makeRestaurant(name: "R\(index)")
            _ = try await world.makeUser(name: "U\(index)")
        }
        _ = try await world.loggedEvents(count: 10)
        let users = try await world.events.events(after: 1, types: ["UserRegistered"], limit: 3)
        #expect(users.events.map(\.seq) == [2, 4, 6])
        #expect(users.lastSeq == 10)
        #expect(users.firstKeptSeq == 1)
        let none = try await world.events.events(after: 0, types: ["OrderPlaced"], limit: 3)
        #expect(none.events.isEmpty && none.lastSeq == 10)
        let tail = try await world.events.events(after: 8, types: nil, limit: 100)
        #expect(tail.events.map(\.seq) == [9, 10])
        #expect(try await world.events.events(after: 10, types: nil, limit: 100).events.isEmpty)
    }

    /// Pruning removes the oldest events up to the first young one, never the newest; reading
    /// from before what is kept is `gone`, naming the first seq kept; the sequence goes on after
    /// the pruned ones.
    @Test(arguments: Backend.allCases)
    func prunedEventsAreGoneAndTheSequenceGoesOn(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        for index in 0..<4 { _ = try await world.makeRestaurant(name: "Old \(index)") }
        world.advance(days: 8)
        for index in 0..<3 { _ = try await world.makeRestaurant(name: "New \(index)") }
        _ = try await world.loggedEvents(count: 7)
        let removed = try await world.events.removeEvents(writtenBefore: world.now.adding(days: -7))
        #expect(removed == 4)
        await #expect(throws: DomainError.gone(firstKeptSeq: 5)) { _ = try await world.useCases.readEventLog.execute(after: 3, limit: nil, types: nil) }
        let kept = try await world.useCases.readEventLog.execute(after: 4, limit: nil, types: nil)
        #expect(kept.events.map(\.seq) == [5, 6, 7])
        #expect(kept.firstKeptSeq == 5)
        // Everything old: the newest event stays (where the sequence goes on), and the next
        // event gets the next seq.
        world.advance(days: 8)
        #expect(try await world.events.removeEvents(writtenBefore: world.now.adding(days: -7)) == 2)
        let newest = try await world.useCases.readEventLog.execute(after: 6, limit: nil, types: nil)
        #expect(newest.events.map(\.seq) == [7] && newest.lastSeq == 7 && newest.firstKeptSeq == 7)
        await #expect(throws: DomainError.gone(firstKeptSeq: 7)) { _ = try await world.useCases.readEventLog.execute(after: 5, limit: nil, types: nil) }
        _ = try await world.makeUser()
        let next = try await world.loggedEvents(count: 8, after: 7)
        #expect(next.map(\.seq) == [8])
    }

    @Test(arguments: Backend.allCases)
    func readEventLogRefusesOutOfRangeParams(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let read = world.useCases.readEventLog
        await #expect(throws: DomainError.invalidInput(field: "after", reason: "must not be negative")) { _ = try await read.execute(after: -1, limit: nil, types: nil) }
        for limit in [0, 1001] {
            await #expect(throws: DomainError.invalidInput(field: "limit", reason: "must be between 1 and 1000")) { _ = try await read.execute(after: 0, limit: limit, types: nil) }
        }
        #expect(try await read.execute(after: 0, limit: 1000, types: nil).lastSeq == 0)
    }

    /// The live stream's reader waits for the next commit and gets it, without polling.
    @Test(arguments: Backend.allCases)
    func aWaitingReaderGetsTheNextEventWhenItCommits(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let waiting = Task { try await world.events.nextEvents(after: 0, limit: 10) }
        let user = try await world.makeUser()
        let events = try await waiting.value
        #expect(events.map(\.seq) == [1])
        #expect(events.first?.key == user.id.rawValue)
        // Cancelling a reader that waits ends its wait.
        let abandoned = Task { try await world.events.nextEvents(after: 1, limit: 10) }
        abandoned.cancel()
        await #expect(throws: CancellationError.self) { _ = try await abandoned.value }
    }

    /// Two instances on one database: both append, one sequence without gaps, and each one's
    /// tail hears of the other's events.
    @Test func twoPostgresInstancesShareOneGapFreeSequence() async throws {
        let first = try await World.open(.postgres, idPrefix: "a")
        let second = try await World.open(.postgres, postgres: first.postgres, idPrefix: "b")
        let heard = Task { try await second.events.nextEvents(after: 0, limit: 1) }
        let ada = try await first.makeUser()
        #expect(try await heard.value.first?.key == ada.id.rawValue)
        let outcomes = await race(200) { index in
            _ = try await (index % 2 == 0 ? first : second).makeRestaurant(name: "R\(index)")
        }
        #expect(outcomes.allSatisfy { $0 == .succeeded })
        let logged = try await second.loggedEvents(count: 201)
        #expect(logged.map(\.seq) == Array(1...201))
        #expect(Set(logged.map(\.key)).count == 201)
        #expect(try await first.loggedEvents(count: 201).map(\.key) == logged.map(\.key))
    }

    private static func userName(_ event: LoggedEvent) throws -> String {
        try #require(JSONParser.parse(event.data)["user"]?["name"]?.stringValue)
    }
}

extension Array where Element == LoggedEvent {
    /// Seqs 1, 2, 3, … in order.
    var areConsecutiveFromOne: Bool { enumerated().allSatisfy { $0.element.seq == Int64($0.offset) + 1 } }
}

extension World {
    /// The log's events after `after`, once it holds at least `count` in all (on PostgreSQL
    /// events are numbered just after their commit); fails the test after 10 s.
    func loggedEvents(count: Int, after: Int64 = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [LoggedEvent] {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while true {
            var events: [LoggedEvent] = []
            var position = after
            while true {
                let slice = try await self.events.events(after: position, types: nil, limit: 1000)
                events += slice.events
                guard let last = slice.events.last?.seq else { break }
                position = last
            }
            if events.count >= count - Int(after) || ContinuousClock.now > deadline {
                #expect(events.count >= count - Int(after), "the log holds \(events.count) events after \(after), expected \(count - Int(after))", sourceLocation: sourceLocation)
                return events
            }
            // Waits for the next event rather than polling on a timer.
            _ = try? await withDeadline(.milliseconds(500)) { [position] in try await self.events.nextEvents(after: position, limit: 1) }
        }
    }

    /// Every event before a marker (a restaurant created now): once the marker's event is in the
    /// log, every write that committed before it is numbered too, on every store.
    func eventsBeforeMarker(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [LoggedEvent] {
        let marker = try await makeRestaurant(name: "Marker").id.rawValue
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        var events: [LoggedEvent] = []
        while ContinuousClock.now < deadline {
            let slice = try await self.events.events(after: events.last?.seq ?? 0, types: nil, limit: 1000)
            events += slice.events
            if let index = events.firstIndex(where: { $0.key == marker }) { return Array(events[..<index]) }
            if slice.events.isEmpty {
                _ = try? await withDeadline(.milliseconds(500)) { [position = events.last?.seq ?? 0] in
                    try await self.events.nextEvents(after: position, limit: 1)
                }
            }
        }
        Issue.record("the marker's event did not reach the log in 10 s", sourceLocation: sourceLocation)
        return events
    }

    /// Creates a restaurant the way seeding does, appending no event; its id.
    func makeRestaurantWithoutEvent() async throws -> String {
        try await EventRecording.suspended { try await makeRestaurant(name: "Quiet").id.rawValue }
    }
}

/// `body`'s value, or `nil` once `limit` passed (`body` is then cancelled).
func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

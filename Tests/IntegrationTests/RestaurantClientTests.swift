import Foundation
import RestaurantClient
import SvcdTestSupport
import Synchronization
import Testing
import WireContract
import WireJSON
import ZeroMQ

private func isISOTimestamp(_ text: String?) -> Bool {
    guard let text else { return false }
    return text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil
}

/// Expects `body` to fail with a service error of `code`; returns its message.
@discardableResult
private func expectServiceError<T>(
    _ code: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws(RestaurantClientError) -> T
) async -> String? {
    do {
        let value = try await body()
        Issue.record("expected \(code), got \(value)", sourceLocation: sourceLocation)
    } catch .service(let actual, let message, let outcome) {
        #expect(actual == code, "\(message)", sourceLocation: sourceLocation)
        #expect(outcome == nil, "a refusal had no effect: \(message)", sourceLocation: sourceLocation)
        return message
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

@Suite struct RestaurantClientTests {
    @Test func discoversEndpointsFromTheDataDirectory() async throws {
        try await withSvcd(seed: true) { child in
            let file = try await child.endpoints()
            let client = try RestaurantClient.discover(dataDirectory: child.dataDirectory)
            #expect(client.endpoints.count == UseCaseName.allCases.count)
            for useCase in UseCaseName.allCases {
                #expect(client.endpoints[useCase] == file.useCases[useCase], "\(useCase)")
            }
            let viaFile = try RestaurantClient(endpointsFile: child.dataDirectory + "/endpoints.json")
            #expect(viaFile.endpoints == client.endpoints)
            let restaurant = try await client.getRestaurant(id: "r-000001")
            #expect(restaurant.name == "Golden Spoon Italian")
            #expect(restaurant.openingHours == ["Mon-Fri 11:00-22:00", "Sat-Sun 10:00-23:00"])
            #expect(restaurant.isFavorite == nil)
        }
    }

    @Test func missingDiscoveryAndAddressesAreUnavailable() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("rc-\(UUID().uuidString)").path
        #expect {
            _ = try RestaurantClient.discover(dataDirectory: missing)
        } throws: { error in
            if case .unavailable = error as? RestaurantClientError { return true }
            return false
        }
        let client = try RestaurantClient(endpoints: [:])
        await #expect(throws: RestaurantClientError.unavailable("no address for GetMenu")) {
            try await client.getMenu(restaurantId: "r-000001")
        }
    }

    @Test func typedRoundTripOfEveryUseCase() async throws {
        try await withSvcd(seed: true) { child in
            _ = try await child.endpoints()
            let client = try RestaurantClient.discover(dataDirectory: child.dataDirectory)
            let tag = UUID().uuidString.prefix(8).lowercased()

            // Users: register → profile → update → subscription.
            let user = try await client.registerUser(name: "Client Tester", email: "client.\(tag)@example.com")
            #expect(user.name == "Client Tester")
            #expect(user.email == "client.\(tag)@example.com")
            #expect(user.isActive)
            #expect(user.subscriptionActiveUntil == nil)
            #expect(isISOTimestamp(user.joinedAt))
            let profile = try await client.getUserProfile(userId: user.id)
            #expect(profile.id == user.id)
            #expect(profile.membershipTier == "bronze")
            #expect(!profile.canAccessPremiumContent)
            let renamed = try await client.updateUserProfile(userId: user.id, name: "Client T.")
            #expect(renamed.name == "Client T.")
            #expect(renamed.email == user.email)
            let subscribed = try await client.startSubscription(userId: user.id, months: 12)
            #expect(isISOTimestamp(subscribed.subscriptionActiveUntil))
            #expect(try await client.getUserProfile(userId: user.id).canAccessPremiumContent)

            // Restaurants: create → get → list pages → search.
            let created = try await client.createRestaurant(
                name: "Client Kitchen \(tag)", cuisine: "Zzclientfood", priceLevel: 2, address: "1 Test Rd",
                latitude: 40.5, longitude: -74.25, imageUrl: "https://img.example.com/\(tag).jpg",
                openingHours: ["Mon-Fri 09:00-17:00"])
            #expect(created.name == "Client Kitchen \(tag)")
            #expect(created.rating == 0)
            #expect(created.reviewCount == 0)
            #expect(created.priceLevel == 2)
            #expect(created.latitude == 40.5 && created.longitude == -74.25)
            #expect(created.website == nil && created.phoneNumber == nil)
            #expect(created.openingHours == ["Mon-Fri 09:00-17:00"])
            #expect(try await client.getRestaurant(id: created.id) == created)

            let all = try await client.listRestaurants(cuisine: "italian", limit: 500)
            #expect(all.nextCursor == nil)
            #expect(all.items.count > 7)
            var paged: [String] = []
            var cursor: String? = nil
            var pages = 0
            repeat {
                let page = try await client.listRestaurants(cuisine: "italian", limit: 7, cursor: cursor)
                if page.nextCursor != nil { #expect(page.items.count == 7) }
                paged += page.items.map(\.id)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 100
            #expect(paged == all.items.map(\.id))
            #expect(Set(paged).count == paged.count)
            #expect(all.items.allSatisfy { $0.cuisine.lowercased() == "italian" })
            #expect(zip(all.items, all.items.dropFirst()).allSatisfy { $0.rating >= $1.rating })

            let found = try await client.searchRestaurants(query: "ZZCLIENTFOOD", limit: 5)
            #expect(found.map(\.id) == [created.id])

            // Favorites: save → get → remove.
            #expect(try await client.saveFavoriteRestaurant(userId: user.id, restaurantId: created.id) == 1)
            #expect(try await client.saveFavoriteRestaurant(userId: user.id, restaurantId: "r-000002") == 2)
            #expect(try await client.getRestaurant(id: created.id, userId: user.id).isFavorite == true)
            #expect(try await client.getFavoriteRestaurants(userId: user.id).map(\.id) == ["r-000002", created.id])
            #expect(try await client.removeFavoriteRestaurant(userId: user.id, restaurantId: created.id) == 1)
            #expect(try await client.getRestaurant(id: created.id, userId: user.id).isFavorite == false)
            #expect(try await client.getFavoriteRestaurants(userId: user.id).map(\.id) == ["r-000002"])

            // Reviews: add → get (paged) → score.
            let first = try await client.addReview(userId: user.id, restaurantId: created.id, rating: 4, text: "good")
            #expect(first.review.rating == 4)
            #expect(first.review.text == "good")
            #expect(first.review.restaurantId == created.id && first.review.userId == user.id)
            #expect(isISOTimestamp(first.review.createdAt))
            #expect(first.restaurantRating == 4.0)
            let second = try await client.addReview(userId: user.id, restaurantId: created.id, rating: 2, text: "")
            #expect(second.restaurantRating == 3.0)
            let reviewPage = try await client.getReviews(restaurantId: created.id, limit: 1)
            #expect(reviewPage.items.map(\.id) == [second.review.id])
            let reviewCursor: String = try #require(reviewPage.nextCursor)
            let lastReviewPage = try await client.getReviews(restaurantId: created.id, limit: 1, cursor: reviewCursor)
            #expect(lastReviewPage.items.map(\.id) == [first.review.id])
            #expect(try await client.getReviews(restaurantId: created.id).items.count == 2)
            let score = try await client.calculateRestaurantScore(restaurantId: created.id)
            // 3.0 × 0.5 + (2 / 100) × 0.25 + (2 / 20) × 0.25
            #expect(abs(score - 1.53) < 1e-9)
            let rated = try await client.getRestaurant(id: created.id)
            #expect(rated.rating == 3.0 && rated.reviewCount == 2)

            // Menu: add → restock → menu.
            let soup = try await client.addMenuItem(restaurantId: created.id, name: "Soup", priceCents: 1200, currency: "USD", stock: 5)
            #expect(soup.name == "Soup" && soup.priceCents == 1200 && soup.currency == "USD" && soup.stock == 5)
            let restocked = try await client.restockMenuItem(itemId: soup.id, quantity: 3)
            #expect(restocked.stock == 8)
            let bread = try await client.addMenuItem(restaurantId: created.id, name: "Bread", priceCents: 300, currency: "USD", stock: 2)
            let menu = try await client.getMenu(restaurantId: created.id)
            #expect(menu.map(\.name) == ["Bread", "Soup"])
            #expect(menu.last?.stock == 8)

            // Orders: place → get → list.
            let order = try await client.placeOrder(
                userId: user.id,
                items: [OrderItemRequest(itemId: soup.id, quantity: 1), OrderItemRequest(itemId: bread.id, quantity: 1)],
                discountCents: 100, deliveryAddress: "9 Elm St")
            #expect(order.userId == user.id)
            #expect(order.items == [
                Order.Line(itemId: soup.id, quantity: 1, unitPriceCents: 1200),
                Order.Line(itemId: bread.id, quantity: 1, unitPriceCents: 300),
            ])
            #expect(order.subtotalCents == 1500)
            #expect(order.discountCents == 100)
            #expect(order.taxCents == 112)
            #expect(order.totalCents == 1512)
            #expect(order.currency == "USD")
            #expect(order.deliveryAddress == "9 Elm St")
            #expect(isISOTimestamp(order.createdAt))
            #expect(try await client.getOrder(id: order.id) == order)
            let orders = try await client.listOrders(userId: user.id)
            #expect(orders.items == [order])
            #expect(orders.nextCursor == nil)
            #expect(try await client.getMenu(restaurantId: created.id).map(\.stock) == [1, 7])
            #expect(order.status == .placed && order.cancelledAt == nil)

            // Cancel: the order cancelled, its stock back; again: answered as it is.
            let toCancel = try await client.placeOrder(userId: user.id, items: [OrderItemRequest(itemId: soup.id, quantity: 1)], deliveryAddress: "9 Elm St")
            let cancelled = try await client.cancelOrder(id: toCancel.id, userId: user.id)
            let cancelledAt = try #require(cancelled.cancelledAt)
            #expect(cancelled.status == .cancelled && isISOTimestamp(cancelledAt))
            #expect(try await client.cancelOrder(id: toCancel.id, userId: user.id) == cancelled)
            #expect(try await client.getOrder(id: toCancel.id) == cancelled)
            #expect(try await client.getMenu(restaurantId: created.id).map(\.stock) == [1, 7])
            await expectServiceError("unauthorized") { () async throws(RestaurantClientError) in
                try await client.cancelOrder(id: "o-000001", userId: user.id)
            }

            // Feed: newest created first, paged.
            let feed = try await client.loadFeed(limit: 1)
            #expect(feed.items == [FeedItem(id: created.id, title: created.name, imageUrl: created.imageUrl)])
            let feedCursor: String = try #require(feed.nextCursor)
            let feedNext = try await client.loadFeed(limit: 2, cursor: feedCursor)
            #expect(feedNext.items.count == 2)
            #expect(!feedNext.items.contains { $0.id == created.id })

            // Deactivate: the user becomes unauthorized, order history stays readable.
            let inactive = try await client.deactivateUser(userId: user.id)
            #expect(!inactive.isActive)
            await expectServiceError("unauthorized") { () async throws(RestaurantClientError) in
                try await client.getUserProfile(userId: user.id)
            }
            #expect(try await client.listOrders(userId: user.id).items.count == 2)
        }
    }

    @Test func serviceErrorsBecomeTypedServiceErrors() async throws {
        try await withSvcd(seed: true) { child in
            _ = try await child.endpoints()
            let client = try RestaurantClient.discover(dataDirectory: child.dataDirectory)
            let message = await expectServiceError("not_found") { () async throws(RestaurantClientError) in
                try await client.getRestaurant(id: "r-999999")
            }
            #expect(message?.contains("r-999999") == true)
            do throws(RestaurantClientError) {
                _ = try await client.getOrder(id: "o-999999")
                Issue.record("expected not_found")
            } catch {
                #expect(error.wireCode == .notFound)
            }
            await expectServiceError("invalid_input") { () async throws(RestaurantClientError) in
                try await client.registerUser(name: "X", email: "not-an-email")
            }
            await expectServiceError("conflict") { () async throws(RestaurantClientError) in
                try await client.registerUser(name: "X", email: "ADA.SAMPLE1@example.com")
            }
            await expectServiceError("invalid_input") { () async throws(RestaurantClientError) in
                try await client.listRestaurants(limit: 501)
            }
        }
    }

    @Test func aSilentEndpointTimesOutAfterTheRetries() async throws {
        let router = FakeRouter { _, _ in nil }
        let address = try await router.start()
        let attempts = Mutex<[Int]>([])
        let client = try RestaurantClient(
            endpoints: [.getRestaurant: address, .registerUser: address],
            options: RestaurantClientOptions(timeout: .milliseconds(200), retries: 2, backoff: .milliseconds(10)),
            onAttempt: { _, attempt in attempts.withLock { $0.append(attempt) } })
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: RestaurantClientError.timeout) {
            try await client.getRestaurant(id: "r-000001")
        }
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(600))
        // It gives up rather than hanging; the bound is loose because CI shares two cores.
        #expect(elapsed < .seconds(30))
        #expect(attempts.withLock { $0 } == [0, 1, 2])
        await router.waitForRequests(3)
        #expect(router.requests == 3, "each retry is a new request on a fresh socket")

        // A write is resent too, every attempt with the same idempotency key.
        attempts.withLock { $0.removeAll() }
        await #expect(throws: RestaurantClientError.timeout) {
            try await client.registerUser(name: "A", email: "a@example.com")
        }
        #expect(attempts.withLock { $0 } == [0, 1, 2])
        await router.waitForRequests(6)
        let keys = router.envelopes.map { $0["idempotencyKey"]?.stringValue }
        #expect(keys[0..<3] == [nil, nil, nil], "reads carry no key")
        let writeKey = try #require(keys[3])
        #expect(keys[3...] == [writeKey, writeKey, writeKey])
        await router.stop()
    }

    @Test func nobodyListeningTimesOutWithinABoundedTime() async throws {
        let attempts = Mutex<[Int]>([])
        let client = try RestaurantClient(
            endpoints: [.loadFeed: "tcp://127.0.0.1:1"],
            options: RestaurantClientOptions(timeout: .milliseconds(150), retries: 1, backoff: .milliseconds(10)),
            onAttempt: { _, attempt in attempts.withLock { $0.append(attempt) } })
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: RestaurantClientError.timeout) {
            try await client.loadFeed()
        }
        // Bounded by construction: exactly 1 + retries attempts, each ended by its own timeout.
        #expect(attempts.withLock { $0 } == [0, 1])
        // About 0.3 s alone; the limit only catches a hang. Generous: CI runs every suite at once
        // on 2 cores, where a fresh thread and the replies' wake-ups waited 8 s once and 36 s
        // once (load average 15) — scheduling, not this client's bound.
        #expect(clock.now - start < .seconds(120))
    }

    @Test func aReadIsRetriedOnAFreshSocketAfterATimeout() async throws {
        // Drops the first request, answers the second.
        let router = FakeRouter { index, id in index == 0 ? nil : okReply(id, #"{"restaurant":\#(cannedRestaurant)}"#) }
        let address = try await router.start()
        let client = try RestaurantClient(
            endpoints: [.getRestaurant: address],
            options: RestaurantClientOptions(timeout: .milliseconds(300), retries: 2, backoff: .milliseconds(10)))
        let restaurant = try await client.getRestaurant(id: "r-fake")
        #expect(restaurant.id == "r-fake")
        #expect(restaurant.rating == 4.5)
        #expect(restaurant.phoneNumber == "+1-555")
        #expect(restaurant.openingHours == ["Mon 9-5"])
        #expect(router.requests == 2)
        await router.stop()
    }

    @Test func safeToResendErrorsAreRetriedEvenForWrites() async throws {
        let router = FakeRouter { index, id in
            index == 0 ? errorReply(id, "overloaded") : okReply(id, #"{"user":\#(cannedUser)}"#)
        }
        let address = try await router.start()
        let client = try RestaurantClient(
            endpoints: [.registerUser: address],
            options: RestaurantClientOptions(timeout: .seconds(2), retries: 2, backoff: .milliseconds(10)))
        let user = try await client.registerUser(name: "Fake", email: "fake@example.com")
        #expect(user.id == "u-fake")
        #expect(router.requests == 2)

        // Without retries the code reaches the caller.
        let noRetryRouter = FakeRouter { _, id in errorReply(id, "unavailable") }
        let strictAddress = try await noRetryRouter.start()
        let strictClient = try RestaurantClient(
            endpoints: [.registerUser: strictAddress], options: RestaurantClientOptions(timeout: .seconds(2), retries: 0))
        let error = await #expect(throws: RestaurantClientError.self) {
            try await strictClient.registerUser(name: "Fake", email: "fake@example.com")
        }
        #expect(error?.wireCode == .unavailable)
        #expect(noRetryRouter.requests == 1)
        await router.stop()
        await noRetryRouter.stop()
    }
}

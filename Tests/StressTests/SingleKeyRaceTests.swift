import Foundation
import SeededRandom
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

extension StressSuite {
    /// Every invariant raced on one row over the wire, from many DEALER clients at once against a
    /// real svcd: the counts are exact, not bounds. Sizes and seeds vary per argument.
    @Suite(.sharedSvcd)
    struct SingleKeyRaceTests {
        private var endpoints: EndpointsFile { get throws { try SharedSvcd.running().endpoints } }

        private func newUser(_ tag: String) async throws -> String {
            let result = try await succeed(try endpoints.address(.registerUser), ["name": "Racer", "email": .string(uniqueEmail(tag))])
            return try #require(result["user"]?["id"]?.stringValue)
        }

        private func newRestaurant(_ name: String) async throws -> String {
            let result = try await succeed(try endpoints.address(.createRestaurant), [
                "name": .string(name), "cuisine": "Race", "priceLevel": 2, "address": "1 Race Way", "latitude": 10.5, "longitude": 20.5,
            ])
            return try #require(result["restaurant"]?["id"]?.stringValue)
        }

        /// A new item with `stock` on the menu of a new restaurant.
        private func newItem(stock: Int, priceCents: Int = 1500) async throws -> (item: String, restaurant: String) {
            let restaurant = try await newRestaurant("Race Kitchen \(UUID().uuidString.prefix(8))")
            let result = try await succeed(try endpoints.address(.addMenuItem), [
                "restaurantId": .string(restaurant), "name": "Contested dish", "priceCents": .int(priceCents), "currency": "USD", "stock": .int(stock),
            ])
            return (try #require(result["item"]?["id"]?.stringValue), restaurant)
        }

        /// The item's stock as GetMenu shows it.
        private func stock(of item: String, in restaurant: String) async throws -> Int {
            let menu = try await succeed(try endpoints.address(.getMenu), ["restaurantId": .string(restaurant)])
            let entry = try #require(menu["items"]?.arrayValue?.first { $0["id"]?.stringValue == item })
            return try #require(entry["stock"]?.intValue)
        }

        @Test(arguments: [(restaurants: 130, clients: 32, seed: UInt64(1)), (restaurants: 175, clients: 64, seed: 2)])
        func favoriteSavesBeyondTheCapForOneUserStopAtExactlyOneHundred(restaurants: Int, clients: Int, seed: UInt64) async throws {
            let user = try await newUser("cap-race")
            var generator = SplitMix64(seed: seed)
            let all = try await (0..<restaurants).asyncMap { try await newRestaurant("Cap \(seed)-\($0)") }
            // Every restaurant once, plus repeats of some (saving a favourite again is a no-op).
            var picks = all + (0..<restaurants / 4).map { _ in all[Int(generator.next() % UInt64(all.count))] }
            picks.shuffle(using: &generator)
            let replies = try await race(
                try endpoints.address(.saveFavoriteRestaurant),
                picks.map { ["userId": .string(user), "restaurantId": .string($0)] }, clients: clients)
            let saved = Set(zip(picks, replies).filter { $0.1.ok == true }.map(\.0))
            let refused = replies.filter { $0.code == "business_rule" }.count
            #expect(saved.count == 100, "distinct restaurants saved: \(ReplyCounts(replies))")
            #expect(replies.allSatisfy { $0.ok == true || $0.code == "business_rule" }, "\(ReplyCounts(replies))")
            #expect(refused >= restaurants - 100, "each restaurant beyond the 100th was refused at least once")
            for reply in replies where reply.ok == true {
                #expect((reply.result?["favoriteCount"]?.intValue ?? 101) <= 100)
            }
            let favorites = try await succeed(try endpoints.address(.getFavoriteRestaurants), ["userId": .string(user)])
            let listed = Set((favorites["restaurants"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
            #expect(listed == saved, "the stored favourites are exactly the acknowledged saves")
        }

        @Test(arguments: [(stock: 37, orders: 90, clients: 32), (stock: 64, orders: 200, clients: 64), (stock: 0, orders: 40, clients: 16)])
        func ordersBeyondTheStockOfOneItemSellExactlyTheStock(stock: Int, orders: Int, clients: Int) async throws {
            let (item, restaurant) = try await newItem(stock: stock)
            let user = try await newUser("stock-race")
            let replies = try await race(
                try endpoints.address(.placeOrder),
                (0..<orders).map { _ in
                    ["userId": .string(user), "items": [["itemId": .string(item), "quantity": 1]], "deliveryAddress": "1 Race Way"]
                }, clients: clients)
            #expect(ReplyCounts(replies) == ReplyCounts(ok: stock, codes: orders > stock ? ["business_rule": orders - stock] : [:]))
            #expect(try await self.stock(of: item, in: restaurant) == 0, "the stock is sold out exactly")
        }

        @Test(arguments: [(contenders: 24, clients: 24, seed: UInt64(3)), (contenders: 100, clients: 50, seed: 4)])
        func registrationsOfOneEmailInMixedCaseWinExactlyOnce(contenders: Int, clients: Int, seed: UInt64) async throws {
            var generator = SplitMix64(seed: seed)
            let email = uniqueEmail("contested")
            let variants: [JSONValue] = (0..<contenders).map { index in
                let mixed = String(email.map { generator.next() % 2 == 0 ? Character($0.uppercased()) : $0 })
                return ["name": .string("Contender \(index)"), "email": .string(mixed)]
            }
            let replies = try await race(try endpoints.address(.registerUser), variants, clients: clients)
            #expect(ReplyCounts(replies) == ReplyCounts(ok: 1, codes: ["conflict": contenders - 1]))
            let winner = try #require(replies.first { $0.ok == true }?.result?["user"]?["id"]?.stringValue)
            let profile = try await succeed(try endpoints.address(.getUserProfile), ["userId": .string(winner)])
            #expect(profile["profile"]?["email"]?.stringValue?.lowercased() == email)
        }

        @Test(arguments: [(reviews: 150, clients: 32, seed: UInt64(5)), (reviews: 333, clients: 64, seed: 6)])
        func concurrentReviewsOfOneRestaurantAllCountAndTheRatingIsTheirMean(reviews: Int, clients: Int, seed: UInt64) async throws {
            let restaurant = try await newRestaurant("Reviewed \(seed)")
            let user = try await newUser("review-race")
            var generator = SplitMix64(seed: seed)
            let ratings = (0..<reviews).map { _ in 1 + Int(generator.next() % 5) }
            let replies = try await race(
                try endpoints.address(.addReview),
                ratings.map { ["userId": .string(user), "restaurantId": .string(restaurant), "rating": .int($0), "text": "race"] },
                clients: clients)
            #expect(ReplyCounts(replies) == ReplyCounts(ok: reviews))
            let stored = try await succeed(try endpoints.address(.getRestaurant), ["restaurantId": .string(restaurant)])
            #expect(stored["restaurant"]?["reviewCount"]?.intValue == reviews)
            let mean = Double(ratings.reduce(0, +)) / Double(reviews)
            let rating = try #require(stored["restaurant"]?["rating"]?.doubleValue)
            #expect(abs(rating - mean) < 1e-9, "rating \(rating), mean of the sent ratings \(mean)")
        }

        @Test(arguments: [(stock: 10, restocks: 60, orders: 150, seed: UInt64(7)), (stock: 0, restocks: 120, orders: 300, seed: 8)])
        func restocksRacingOrdersConserveStockExactly(stock: Int, restocks: Int, orders: Int, seed: UInt64) async throws {
            let (item, restaurant) = try await newItem(stock: stock)
            let user = try await newUser("restock-race")
            var generator = SplitMix64(seed: seed)
            var mixed: [(isRestock: Bool, params: JSONValue, quantity: Int)] = []
            for _ in 0..<restocks {
                let quantity = 1 + Int(generator.next() % 4)
                mixed.append((true, ["itemId": .string(item), "quantity": .int(quantity)], quantity))
            }
            for _ in 0..<orders {
                let quantity = 1 + Int(generator.next() % 3)
                mixed.append((false, ["userId": .string(user), "items": [["itemId": .string(item), "quantity": .int(quantity)]], "deliveryAddress": "2 Race Way"], quantity))
            }
            mixed.shuffle(using: &generator)
            // Two endpoints at once: the restocks and the orders race from their own clients.
            // Their params are built before the async lets: with -sanitize=thread the compiler refuses
            // to send the mutable `mixed` into them ("sending 'mixed' risks causing data races").
            let restockParams = mixed.filter(\.isRestock).map(\.params)
            let orderParams = mixed.filter { !$0.isRestock }.map(\.params)
            async let restockReplies = race(try endpoints.address(.restockMenuItem), restockParams, clients: 16)
            async let orderReplies = race(try endpoints.address(.placeOrder), orderParams, clients: 32)
            let (restocked, ordered) = try await (restockReplies, orderReplies)
            #expect(restocked.allSatisfy { $0.ok == true }, "\(ReplyCounts(restocked))")
            #expect(ordered.allSatisfy { $0.ok == true || $0.code == "business_rule" }, "\(ReplyCounts(ordered))")
            let restockedUnits = mixed.filter(\.isRestock).map(\.quantity).reduce(0, +)
            let soldUnits = zip(mixed.filter { !$0.isRestock }, ordered).filter { $0.1.ok == true }.map(\.0.quantity).reduce(0, +)
            let left = try await self.stock(of: item, in: restaurant)
            #expect(left >= 0)
            #expect(stock + restockedUnits == soldUnits + left, "initial \(stock) + restocked \(restockedUnits) vs sold \(soldUnits) + left \(left)")
        }
    }
}

extension Sequence {
    /// `map` with an async transform, one element at a time.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

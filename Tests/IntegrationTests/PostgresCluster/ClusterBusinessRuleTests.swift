import Foundation
import SeededRandom
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

extension PostgresClusterSuite {
    /// Every business rule raced over three instances on one database, from DEALER clients spread
    /// over all three (client i on instance i mod 3): the counts are exact, not bounds, and what
    /// the replies say is what PostgreSQL holds.
    ///
    /// A reply `unavailable` or `overloaded` (no effect, by the contract) is resent until it gets
    /// another answer; the exact counts then also prove that the transient replies had no
    /// effect, since one that had would leave one effect more than the acknowledgements say.
    @Suite
    struct ClusterBusinessRuleTests {
        /// Clients per race: eight on each instance.
        private static let clients = 24

        /// A cluster of three on a fresh database, stopped afterwards.
        private func withCluster(_ body: (SvcdCluster, TestDatabase) async throws -> Void) async throws {
            let database = try await SharedPostgres.newDatabase()
            try await withSvcdCluster(databaseURL: database.url) { cluster in try await body(cluster, database) }
        }

        /// `count` restaurants created through all three instances at once; their ids.
        private func restaurants(_ count: Int, _ tag: String, on cluster: SvcdCluster) async throws -> [String] {
            let race = try await ClusterRace.run(cluster, .createRestaurant, (0..<count).map { index in
                ["name": .string("\(tag) \(index)"), "cuisine": "Race", "priceLevel": 2, "address": "1 Race Way", "latitude": 10.5, "longitude": 20.5]
            }, clients: 6)
            return try race.replies.map { reply in try #require(reply.result?["restaurant"]?["id"]?.stringValue, "\(reply)") }
        }

        @Test func favouriteSavesBeyondTheCapStopAtExactlyOneHundredAcrossInstances() async throws {
            try await withCluster { cluster, database in
                let user = try await cluster.newUser(on: 1, "cap")
                let all = try await restaurants(130, "Cap", on: cluster)
                var generator = SplitMix64(seed: 1)
                // Every restaurant once, plus repeats of some (saving a favourite again is a no-op).
                var picks = all + (0..<40).map { _ in all[Int(generator.next() % UInt64(all.count))] }
                picks.shuffle(using: &generator)
                let race = try await ClusterRace.run(
                    cluster, .saveFavoriteRestaurant, picks.map { ["userId": .string(user), "restaurantId": .string($0)] }, clients: Self.clients)
                let replies = race.replies
                #expect(replies.allSatisfy { $0.ok == true || $0.code == "business_rule" }, "\(race.summary)")
                let saved = Set(zip(picks, replies).filter { $0.1.ok == true }.map(\.0))
                #expect(saved.count == 100, "distinct restaurants acknowledged: \(race.summary)")
                // Favourites are never removed here, so a restaurant refused once was never saved:
                // each request is ok exactly when its restaurant is among the stored ones.
                let stored = Set(try await database.psql("SELECT restaurant_id FROM favorites WHERE user_id = '\(user)'")
                    .split(separator: "\n").map(String.init))
                #expect(stored == saved, "PostgreSQL holds exactly the acknowledged saves")
                let expected = ReplyTally(
                    ok: picks.filter { stored.contains($0) }.count, codes: ["business_rule": picks.filter { !stored.contains($0) }.count])
                #expect(race.counts == expected, "\(race.summary)")
                #expect(replies.compactMap { $0.result?["favoriteCount"]?.intValue }.allSatisfy { (1...100).contains($0) })
                // Every instance lists the same hundred.
                for instance in cluster.indices {
                    let favorites = try await cluster.succeed(.getFavoriteRestaurants, on: instance, ["userId": .string(user)])
                    let listed = Set((favorites["restaurants"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
                    #expect(listed == saved, "instance \(instance)")
                }
            }
        }

        @Test func singleUnitOrdersBeyondTheStockSellExactlyTheStockAcrossInstances() async throws {
            try await withCluster { cluster, database in
                let (stock, orders) = (40, 130)
                let restaurant = try await cluster.newRestaurant(on: 2, "Stock race")
                let item = try await cluster.newItem(on: 0, in: restaurant, stock: stock)
                let user = try await cluster.newUser(on: 1, "stock")
                let race = try await ClusterRace.run(cluster, .placeOrder, (0..<orders).map { _ in
                    ["userId": .string(user), "items": [["itemId": .string(item), "quantity": 1]], "deliveryAddress": "1 Race Way"]
                }, clients: Self.clients)
                #expect(race.counts == ReplyTally(ok: stock, codes: ["business_rule": orders - stock]), "\(race.summary)")
                for instance in cluster.indices {
                    #expect(try await cluster.stock(of: item, in: restaurant, on: instance) == 0, "sold out exactly, seen on instance \(instance)")
                }
                #expect(try await database.integer("SELECT count(*) FROM orders WHERE user_id = '\(user)'") == stock)
                #expect(try await database.integer("SELECT sum(quantity) FROM order_lines WHERE item_id = '\(item)'") == stock)
            }
        }

        @Test func twoLineOrdersAreAllOrNothingWhenOneLineSellsOut() async throws {
            try await withCluster { cluster, database in
                // A runs out; B never does. An order of both that is refused must take nothing of B.
                let (stockA, stockB, orders) = (30, 1000, 120)
                let restaurant = try await cluster.newRestaurant(on: 0, "All or nothing")
                let itemA = try await cluster.newItem(on: 1, in: restaurant, stock: stockA)
                let itemB = try await cluster.newItem(on: 2, in: restaurant, stock: stockB)
                let user = try await cluster.newUser(on: 0, "pairs")
                let bothItems = (0..<orders).map { $0 % 2 == 0 }
                let race = try await ClusterRace.run(cluster, .placeOrder, bothItems.map { both in
                    let lines: [JSONValue] = both
                        ? [["itemId": .string(itemA), "quantity": 1], ["itemId": .string(itemB), "quantity": 1]]
                        : [["itemId": .string(itemA), "quantity": 1]]
                    return ["userId": .string(user), "items": .array(lines), "deliveryAddress": "2 Race Way"]
                }, clients: Self.clients)
                #expect(race.counts == ReplyTally(ok: stockA, codes: ["business_rule": orders - stockA]), "\(race.summary)")
                let soldB = zip(bothItems, race.replies).filter { $0.0 && $0.1.ok == true }.count
                #expect(try await cluster.stock(of: itemA, in: restaurant, on: 1) == 0)
                #expect(try await cluster.stock(of: itemB, in: restaurant, on: 2) == stockB - soldB, "B lost units only to acknowledged orders")
                #expect(try await database.integer("SELECT count(*) FROM order_lines WHERE item_id = '\(itemB)'") == soldB)
            }
        }

        @Test func restocksRacingOrdersConserveStockExactlyAcrossInstances() async throws {
            try await withCluster { cluster, database in
                let (initial, restocks, orders) = (10, 60, 150)
                let restaurant = try await cluster.newRestaurant(on: 1, "Conservation")
                let item = try await cluster.newItem(on: 2, in: restaurant, stock: initial)
                let user = try await cluster.newUser(on: 0, "conservation")
                var generator = SplitMix64(seed: 7)
                let restockQuantities = (0..<restocks).map { _ in 1 + Int(generator.next() % 4) }
                let orderQuantities = (0..<orders).map { _ in 1 + Int(generator.next() % 3) }
                async let restocked = ClusterRace.run(
                    cluster, .restockMenuItem, restockQuantities.map { ["itemId": .string(item), "quantity": .int($0)] }, clients: 9)
                async let ordered = ClusterRace.run(cluster, .placeOrder, orderQuantities.map { quantity in
                    ["userId": .string(user), "items": [["itemId": .string(item), "quantity": .int(quantity)]], "deliveryAddress": "3 Race Way"]
                }, clients: Self.clients)
                let (restockRace, orderRace) = try await (restocked, ordered)
                #expect(restockRace.counts == ReplyTally(ok: restocks), "\(restockRace.summary)")
                #expect(orderRace.replies.allSatisfy { $0.ok == true || $0.code == "business_rule" }, "\(orderRace.summary)")
                let restockedUnits = restockQuantities.reduce(0, +)
                let sold = zip(orderQuantities, orderRace.replies).filter { $0.1.ok == true }.map(\.0).reduce(0, +)
                let left = try await cluster.stock(of: item, in: restaurant, on: 0)
                #expect(left >= 0)
                #expect(initial + restockedUnits == sold + left, "initial \(initial) + restocked \(restockedUnits) vs sold \(sold) + left \(left)")
                #expect(try await database.integer("SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE item_id = '\(item)'") == sold)
                #expect(orderRace.counts.ok > 0 && orderRace.counts.codes["business_rule", default: 0] > 0, "the race sold out at times: \(orderRace.summary)")
            }
        }

        @Test func registrationsOfOneEmailInMixedCaseOnAllInstancesWinExactlyOnce() async throws {
            try await withCluster { cluster, database in
                let contenders = 30
                var generator = SplitMix64(seed: 3)
                let email = uniqueEmail("contested")
                let variants: [JSONValue] = (0..<contenders).map { index in
                    let mixed = String(email.map { generator.next() % 2 == 0 ? Character($0.uppercased()) : $0 })
                    return ["name": .string("Contender \(index)"), "email": .string(mixed)]
                }
                // One request per client, so all thirty are in flight at once.
                let race = try await ClusterRace.run(cluster, .registerUser, variants, clients: contenders)
                #expect(race.counts == ReplyTally(ok: 1, codes: ["conflict": contenders - 1]), "\(race.summary)")
                let winner = try #require(race.replies.first { $0.ok == true }?.result?["user"]?["id"]?.stringValue)
                #expect(try await database.integer("SELECT count(*) FROM users WHERE lower(email) = '\(email)'") == 1)
                for instance in cluster.indices {
                    let profile = try await cluster.succeed(.getUserProfile, on: instance, ["userId": .string(winner)])
                    #expect(profile["profile"]?["email"]?.stringValue?.lowercased() == email, "instance \(instance)")
                }
            }
        }

        @Test func concurrentReviewsOnAllInstancesAllCountAndTheRatingIsTheirMean() async throws {
            try await withCluster { cluster, database in
                let reviews = 180
                let restaurant = try await cluster.newRestaurant(on: 2, "Reviewed")
                let user = try await cluster.newUser(on: 1, "reviewer")
                var generator = SplitMix64(seed: 5)
                let ratings = (0..<reviews).map { _ in 1 + Int(generator.next() % 5) }
                let race = try await ClusterRace.run(cluster, .addReview, ratings.map {
                    ["userId": .string(user), "restaurantId": .string(restaurant), "rating": .int($0), "text": "race"]
                }, clients: Self.clients)
                #expect(race.counts == ReplyTally(ok: reviews), "\(race.summary)")
                let mean = Double(ratings.reduce(0, +)) / Double(reviews)
                for instance in cluster.indices {
                    let stored = try await cluster.succeed(.getRestaurant, on: instance, ["restaurantId": .string(restaurant)])
                    #expect(stored["restaurant"]?["reviewCount"]?.intValue == reviews, "instance \(instance)")
                    let rating = try #require(stored["restaurant"]?["rating"]?.doubleValue)
                    #expect(abs(rating - mean) < 1e-9, "instance \(instance): rating \(rating), mean of the sent ratings \(mean)")
                }
                #expect(try await database.integer("SELECT count(*) FROM reviews WHERE restaurant_id = '\(restaurant)'") == reviews)
                #expect(try await database.integer("SELECT sum(rating) FROM reviews WHERE restaurant_id = '\(restaurant)'") == ratings.reduce(0, +))
            }
        }
    }
}

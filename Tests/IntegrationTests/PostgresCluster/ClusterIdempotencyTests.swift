import Foundation
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

extension PostgresClusterSuite {
    /// Idempotency keys across the instances of a cluster and across a kill -9 and restart: a
    /// bound key is answered with the bound result, byte for byte, wherever it is sent again, and
    /// the write takes effect once; one key sent to all three instances at once takes effect
    /// once; other params or another use case with a bound key are refused `conflict`.
    @Suite
    struct ClusterIdempotencyTests {
        /// A reply's bytes from `"ok":` on: all of it but the echoed request id.
        private static func resultBytes(_ reply: Reply) -> [UInt8] {
            let marker = Array(#","ok":"#.utf8)
            let body = reply.body
            guard let start = body.indices.first(where: { body[$0...].starts(with: marker) }) else { return body }
            return Array(body[start...])
        }

        /// Sends `params` with `key` to `useCase` on `first`, expects ok, sends it again on every
        /// other instance and expects the same bytes; returns the first reply's result.
        @discardableResult
        private func writeAndReplayEverywhere(
            _ cluster: SvcdCluster, _ useCase: UseCaseName, _ params: JSONValue, key: String, first: Int,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> JSONValue {
            let original = try await cluster.send(useCase, on: first, params, idempotencyKey: key, id: "first")
            try #require(original.ok == true, "\(useCase) on \(first): \(original)", sourceLocation: sourceLocation)
            for instance in cluster.indices where instance != first {
                let replay = try await cluster.send(useCase, on: instance, params, idempotencyKey: key, id: "replay-\(instance)")
                #expect(replay.id?.stringValue == "replay-\(instance)", sourceLocation: sourceLocation)
                #expect(Self.resultBytes(replay) == Self.resultBytes(original),
                        "\(useCase) replayed on \(instance):\n\(replay)\nfirst answered on \(first):\n\(original)", sourceLocation: sourceLocation)
            }
            return try #require(original.result, sourceLocation: sourceLocation)
        }

        @Test func aKeyedWriteReplayedOnTheOtherInstancesAnswersTheSameBytesAndTakesEffectOnce() async throws {
            let database = try await SharedPostgres.newDatabase()
            try await withSvcdCluster(databaseURL: database.url) { cluster in
                let restaurant = try await cluster.newRestaurant(on: 0, "Replayed")
                let item = try await cluster.newItem(on: 1, in: restaurant, stock: 100)
                let user = try await cluster.newUser(on: 2, "replays")
                let key = { (name: String) in "\(name)-\(UUID().uuidString)" }

                // PlaceOrder: one order, three units taken once.
                let orderKey = key("order")
                let orderParams: JSONValue = [
                    "userId": .string(user), "items": [["itemId": .string(item), "quantity": 3]], "deliveryAddress": "4 Replay Rd",
                ]
                let order = try await writeAndReplayEverywhere(cluster, .placeOrder, orderParams, key: orderKey, first: 0)
                // The same params spelled differently (member order, 3.0, spaces) are the same request.
                let respelled = try await call(try cluster.address(.placeOrder, on: 2), Array("""
                    {"params": {"deliveryAddress": "4 Replay Rd", "items": [{"quantity": 3.0, "itemId": "\(item)"}], "userId": "\(user)"},
                     "idempotencyKey": "\(orderKey)", "id": "respelled", "v": 1}
                    """.utf8))
                #expect(respelled.ok == true && respelled.result?["order"]?["id"] == order["order"]?["id"], "\(respelled)")
                for instance in cluster.indices {
                    #expect(try await cluster.stock(of: item, in: restaurant, on: instance) == 97, "instance \(instance)")
                }
                #expect(try await database.integer("SELECT count(*) FROM orders WHERE user_id = '\(user)'") == 1)

                // AddReview: one review.
                let review = try await writeAndReplayEverywhere(cluster, .addReview, [
                    "userId": .string(user), "restaurantId": .string(restaurant), "rating": 5, "text": "once",
                ], key: key("review"), first: 1)
                #expect(review["restaurantRating"]?.doubleValue == 5)
                #expect(try await database.integer("SELECT count(*) FROM reviews WHERE restaurant_id = '\(restaurant)'") == 1)

                // RegisterUser: one user, the same id every time (not a conflict with itself).
                let email = uniqueEmail("keyed")
                let registered = try await writeAndReplayEverywhere(
                    cluster, .registerUser, ["name": "Keyed", "email": .string(email)], key: key("register"), first: 2)
                #expect(registered["user"]?["email"]?.stringValue == email)
                #expect(try await database.integer("SELECT count(*) FROM users WHERE email = '\(email)'") == 1)

                // CreateRestaurant: one restaurant of that name.
                let name = "Keyed \(UUID().uuidString.prefix(8))"
                try await writeAndReplayEverywhere(cluster, .createRestaurant, [
                    "name": .string(name), "cuisine": "Keys", "priceLevel": 3, "address": "5 Replay Rd", "latitude": 1.5, "longitude": 2.5,
                ], key: key("restaurant"), first: 0)
                #expect(try await database.integer("SELECT count(*) FROM restaurants WHERE name = '\(name)'") == 1)

                // RestockMenuItem: five units added once; replays answer the bound stock of 102.
                let restocked = try await writeAndReplayEverywhere(
                    cluster, .restockMenuItem, ["itemId": .string(item), "quantity": 5], key: key("restock"), first: 1)
                #expect(restocked["item"]?["stock"]?.intValue == 102)
                #expect(try await cluster.stock(of: item, in: restaurant, on: 2) == 102)

                // A bound key with other params, or with another use case, is a conflict naming the
                // key, on every instance; it binds nothing and the original still replays.
                for instance in cluster.indices {
                    let otherParams = try await cluster.send(.placeOrder, on: instance, [
                        "userId": .string(user), "items": [["itemId": .string(item), "quantity": 4]], "deliveryAddress": "4 Replay Rd",
                    ], idempotencyKey: orderKey)
                    #expect(otherParams.code == "conflict" && otherParams.message?.contains("idempotencyKey") == true, "\(otherParams)")
                    let otherUseCase = try await cluster.send(.addReview, on: instance, [
                        "userId": .string(user), "restaurantId": .string(restaurant), "rating": 1, "text": "other",
                    ], idempotencyKey: orderKey)
                    #expect(otherUseCase.code == "conflict" && otherUseCase.message?.contains("idempotencyKey") == true, "\(otherUseCase)")
                }
                let again = try await cluster.send(.placeOrder, on: 1, orderParams, idempotencyKey: orderKey)
                #expect(again.result?["order"] == order["order"], "\(again)")
                #expect(try await database.integer("SELECT count(*) FROM orders WHERE user_id = '\(user)'") == 1)
                #expect(try await database.integer("SELECT count(*) FROM reviews WHERE restaurant_id = '\(restaurant)'") == 1)

                // A refusal binds nothing: the same key succeeds once the reason is gone.
                let bigOrderKey = key("big-order")
                let bigOrder: JSONValue = [
                    "userId": .string(user), "items": [["itemId": .string(item), "quantity": 150]], "deliveryAddress": "4 Replay Rd",
                ]
                let refused = try await cluster.send(.placeOrder, on: 0, bigOrder, idempotencyKey: bigOrderKey)
                #expect(refused.code == "business_rule", "\(refused)")
                try await cluster.succeed(.restockMenuItem, on: 2, ["itemId": .string(item), "quantity": 100])
                try await writeAndReplayEverywhere(cluster, .placeOrder, bigOrder, key: bigOrderKey, first: 1)
                #expect(try await cluster.stock(of: item, in: restaurant, on: 0) == 52)

                // Reads ignore a key: the same key on a read shows the current state each time.
                let readKey = key("read")
                let before = try await cluster.succeed(.getRestaurant, on: 0, ["restaurantId": .string(restaurant)], idempotencyKey: readKey)
                try await cluster.succeed(.addReview, on: 2, ["userId": .string(user), "restaurantId": .string(restaurant), "rating": 1, "text": "more"])
                let after = try await cluster.succeed(.getRestaurant, on: 1, ["restaurantId": .string(restaurant)], idempotencyKey: readKey)
                #expect(before["restaurant"]?["reviewCount"]?.intValue == 1)
                #expect(after["restaurant"]?["reviewCount"]?.intValue == 2)
            }
        }

        @Test func oneKeySentToAllThreeInstancesAtOnceTakesEffectOnceAndAllGetItsResult() async throws {
            let database = try await SharedPostgres.newDatabase()
            try await withSvcdCluster(databaseURL: database.url) { cluster in
                let restaurant = try await cluster.newRestaurant(on: 0, "Contested keys")
                let item = try await cluster.newItem(on: 1, in: restaurant, stock: 1000)
                let user = try await cluster.newUser(on: 2, "contested-keys")
                let rounds = 24
                let useCases: [UseCaseName] = [.addReview, .registerUser, .placeOrder]
                let emails = (0..<rounds).map { _ in uniqueEmail("same-key") }
                let requests: [(useCase: UseCaseName, key: String, params: JSONValue)] = (0..<rounds).map { round in
                    let useCase = useCases[round % useCases.count]
                    let params: JSONValue
                    switch useCase {
                    case .addReview:
                        params = ["userId": .string(user), "restaurantId": .string(restaurant), "rating": .int(1 + round % 5), "text": "contested"]
                    case .registerUser:
                        params = ["name": "Contested", "email": .string(emails[round])]
                    default:
                        params = ["userId": .string(user), "items": [["itemId": .string(item), "quantity": 2]], "deliveryAddress": "6 Race Rd"]
                    }
                    return (useCase, "contested-\(round)-\(UUID().uuidString)", params)
                }
                let addresses = try cluster.indices.map { instance in
                    try Dictionary(uniqueKeysWithValues: useCases.map { ($0, try cluster.address($0, on: instance)) })
                }
                // Per round, the three copies leave one thread back to back on connections opened
                // beforehand, so they reach the three instances within microseconds of each other.
                let answers: [[Reply?]] = try await onThread {
                    var connections: [String: WireClient] = [:]
                    defer { for connection in connections.values { connection.close() } }
                    for (instance, byUseCase) in addresses.enumerated() {
                        for (useCase, address) in byUseCase {
                            connections["\(useCase)@\(instance)"] = try WireClient(.dealer, connectTo: address, receiveTimeout: 20_000)
                        }
                    }
                    return try requests.map { request in
                        let copies = addresses.indices.map { connections["\(request.useCase)@\($0)"]! }
                        let body = WireTestSupport.request(id: "copy", params: request.params, extra: [("idempotencyKey", .string(request.key))])
                        for copy in copies { try copy.send(body: body) }
                        return try copies.map { try $0.receiveReply() }
                    }
                }
                for (round, replies) in answers.enumerated() {
                    let label = "round \(round) (\(requests[round].useCase))"
                    let received = replies.compactMap { $0 }
                    try #require(received.count == 3, "\(label): a copy got no reply")
                    #expect(received.allSatisfy { $0.ok == true }, "\(label): \(received)")
                    #expect(Set(received.map(Self.resultBytes)).count == 1, "\(label): the three copies got different results: \(received)")
                }
                let perUseCase = rounds / useCases.count
                #expect(try await database.integer("SELECT count(*) FROM reviews WHERE restaurant_id = '\(restaurant)'") == perUseCase)
                let placed = try await database.integer("SELECT count(*) FROM orders WHERE user_id = '\(user)'")
                #expect(placed == perUseCase)
                #expect(try await cluster.stock(of: item, in: restaurant, on: 0) == 1000 - 2 * perUseCase)
                let registered = emails.enumerated().filter { requests[$0.offset].useCase == .registerUser }.map(\.element)
                let quoted = registered.map { "'\($0)'" }.joined(separator: ",")
                #expect(try await database.integer("SELECT count(*) FROM users WHERE email IN (\(quoted))") == registered.count)
                #expect(try await database.integer("SELECT count(*) FROM idempotency_keys WHERE key LIKE 'contested-%'") == rounds)
            }
        }

        @Test func aBoundKeyIsAnsweredTheSameAfterKillDashNineAndRestart() async throws {
            let database = try await SharedPostgres.newDatabase()
            try await withSvcdCluster(databaseURL: database.url) { cluster in
                let restaurant = try await cluster.newRestaurant(on: 1, "Restarted")
                let item = try await cluster.newItem(on: 2, in: restaurant, stock: 50)
                let user = try await cluster.newUser(on: 0, "restart")
                let orderKey = "restart-order-\(UUID().uuidString)"
                let orderParams: JSONValue = [
                    "userId": .string(user), "items": [["itemId": .string(item), "quantity": 5]], "deliveryAddress": "7 Restart Rd",
                ]
                let original = try await cluster.send(.placeOrder, on: 0, orderParams, idempotencyKey: orderKey)
                try #require(original.ok == true, "\(original)")

                try await cluster.kill(0)
                // A key bound by a survivor while instance 0 is down.
                let reviewKey = "restart-review-\(UUID().uuidString)"
                let reviewParams: JSONValue = ["userId": .string(user), "restaurantId": .string(restaurant), "rating": 3, "text": "meanwhile"]
                let reviewed = try await cluster.send(.addReview, on: 1, reviewParams, idempotencyKey: reviewKey)
                try #require(reviewed.ok == true, "\(reviewed)")

                try await cluster.restart(0)
                for instance in [0, 2] {
                    let replay = try await cluster.send(.placeOrder, on: instance, orderParams, idempotencyKey: orderKey)
                    #expect(Self.resultBytes(replay) == Self.resultBytes(original), "instance \(instance) after the restart:\n\(replay)\nfirst:\n\(original)")
                }
                let reviewReplay = try await cluster.send(.addReview, on: 0, reviewParams, idempotencyKey: reviewKey)
                #expect(Self.resultBytes(reviewReplay) == Self.resultBytes(reviewed), "\(reviewReplay)\nfirst:\n\(reviewed)")
                #expect(try await cluster.stock(of: item, in: restaurant, on: 0) == 45)
                #expect(try await database.integer("SELECT count(*) FROM orders WHERE user_id = '\(user)'") == 1)
                #expect(try await database.integer("SELECT count(*) FROM reviews WHERE restaurant_id = '\(restaurant)'") == 1)
                let status = try await cluster.status(of: 0)
                #expect(status["store"]?["kind"]?.stringValue == "postgres" && status["store"]?["reachable"]?.boolValue == true, "\(status)")
            }
        }
    }
}

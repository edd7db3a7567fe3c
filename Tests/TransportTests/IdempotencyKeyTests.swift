import Foundation
import ServiceApp
import Testing
import Transport
import WireContract
import WireJSON
import WireTestSupport

/// A keyed request body: `{"v":1,"id":…,"idempotencyKey":…,"params":…}`.
private func keyed(_ key: String, id: String, _ params: JSONValue) -> [UInt8] {
    request(id: id, params: params, extra: [("idempotencyKey", .string(key))])
}

/// A fresh key per call, so tests sharing one service never collide.
private func freshKey(_ tag: String) -> String {
    "\(tag)-\(UUID().uuidString)"
}

/// Sends `body` to `useCase` and requires an `ok` reply; returns its result.
private func okResult(_ harness: ServiceHarness, _ useCase: UseCaseName, _ body: [UInt8]) async throws -> JSONValue {
    let reply = try await call(try harness.address(useCase), body)
    #expect(reply.ok == true, "\(useCase.rawValue): \(reply)")
    return try #require(reply.result, "\(useCase.rawValue): \(reply)")
}

/// One write of each use case, on entities of its own (made by `prepare`), to send twice.
struct KeyedWrite: Sendable, CustomTestStringConvertible {
    let useCase: UseCaseName
    let prepare: @Sendable (ServiceHarness) async throws -> JSONValue
    var testDescription: String { useCase.rawValue }
}

private func newUser(_ harness: ServiceHarness) async throws -> String {
    let result = try await okResult(harness, .registerUser, request(params: ["name": "Keyed", "email": .string(uniqueEmail("keyed"))]))
    return try #require(result["user"]?["id"]?.stringValue)
}

private func newRestaurant(_ harness: ServiceHarness) async throws -> String {
    let result = try await okResult(harness, .createRestaurant, request(params: [
        "name": "Keyed Diner", "cuisine": "Test", "priceLevel": 2, "address": "1 Key St", "latitude": 1, "longitude": 2,
    ]))
    return try #require(result["restaurant"]?["id"]?.stringValue)
}

private func newItem(_ harness: ServiceHarness, restaurantId: String, stock: Int) async throws -> String {
    let result = try await okResult(harness, .addMenuItem, request(params: [
        "restaurantId": .string(restaurantId), "name": "Keyed Soup", "priceCents": 1500, "currency": "USD", "stock": .int(stock),
    ]))
    return try #require(result["item"]?["id"]?.stringValue)
}

/// One keyed write per write use case of the contract: an exhaustive switch, so a use case added
/// without its case here does not compile.
private let keyedWrites: [KeyedWrite] = UseCaseName.allCases.compactMap { useCase in
    keyedParams(useCase).map { KeyedWrite(useCase: useCase, prepare: $0) }
}

/// How a keyed write of `useCase` makes its params; `nil` for a read.
private func keyedParams(_ useCase: UseCaseName) -> (@Sendable (ServiceHarness) async throws -> JSONValue)? {
    switch useCase {
    case .registerUser: { _ in ["name": "Twice", "email": .string(uniqueEmail("twice"))] }
    case .updateUserProfile: { h in ["userId": .string(try await newUser(h)), "name": "Renamed"] }
    case .deactivateUser: { h in ["userId": .string(try await newUser(h))] }
    case .startSubscription: { h in ["userId": .string(try await newUser(h)), "months": 3] }
    case .createRestaurant: { _ in
        ["name": "Once", "cuisine": "Greek", "priceLevel": 3, "address": "2 Key St", "latitude": -3.5, "longitude": 7, "openingHours": ["Mon 9-5"]]
    }
    case .saveFavoriteRestaurant: { h in ["userId": .string(try await newUser(h)), "restaurantId": "r-000003"] }
    case .removeFavoriteRestaurant: { h in ["userId": .string(try await newUser(h)), "restaurantId": "r-000003"] }
    case .addReview: { h in ["userId": .string(try await newUser(h)), "restaurantId": .string(try await newRestaurant(h)), "rating": 4, "text": "Once only"] }
    case .addMenuItem: { h in ["restaurantId": .string(try await newRestaurant(h)), "name": "Once Pie", "priceCents": 700, "currency": "EUR", "stock": 9] }
    case .restockMenuItem: { h in ["itemId": .string(try await newItem(h, restaurantId: try await newRestaurant(h), stock: 1)), "quantity": 5] }
    case .placeOrder: { h in
        let item = try await newItem(h, restaurantId: try await newRestaurant(h), stock: 10)
        return ["userId": .string(try await newUser(h)), "items": [["itemId": .string(item), "quantity": 2]], "deliveryAddress": "3 Key St"]
    }
    case .cancelOrder: { h in
        let item = try await newItem(h, restaurantId: try await newRestaurant(h), stock: 10)
        let userId = try await newUser(h)
        let placed = try await okResult(h, .placeOrder, request(params: ["userId": .string(userId), "items": [["itemId": .string(item), "quantity": 2]], "deliveryAddress": "4 Key St"]))
        return ["orderId": .string(try #require(placed["order"]?["id"]?.stringValue)), "userId": .string(userId)]
    }
    case .getUserProfile, .getRestaurant, .listRestaurants, .searchRestaurants, .getFavoriteRestaurants, .getReviews,
         .calculateRestaurantScore, .getMenu, .getOrder, .listOrders, .loadFeed:
        nil
    }
}

/// The envelope's `idempotencyKey` over real sockets: a repeated write is answered with the
/// first reply's result and has no effect, on both stores; another request with the key is a
/// conflict; reads ignore keys.
@Suite("Idempotency keys")
struct IdempotencyKeyTests {
    @Test func everyWriteOfTheContractHasAKeyedCase() {
        let covered = keyedWrites.map(\.useCase)
        #expect(Set(covered) == Set(UseCaseName.allCases.filter(\.writes)), "add a KeyedWrite for each new write")
        #expect(Set(covered).count == covered.count)
    }

    @Test(arguments: [ServiceConfiguration.StoreKind.sqlite, .memory], keyedWrites)
    func aRepeatedWriteIsAnsweredWithTheFirstResult(_ store: ServiceConfiguration.StoreKind, _ write: KeyedWrite) async throws {
        try await withService(seed: true, configure: { $0.store = store }) { harness in
            let params = try await write.prepare(harness)
            let key = freshKey(write.useCase.rawValue)
            let address = try harness.address(write.useCase)
            let first = try await call(address, keyed(key, id: "first", params))
            #expect(first.ok == true, "\(first)")
            let second = try await call(address, keyed(key, id: "second", params))
            #expect(second.ok == true, "\(second)")
            #expect(second.id == "second")
            #expect(second.result == first.result, "replay \(second) differs from \(first)")
            // Byte for byte: the replay splices the recorded result object in unchanged.
            let firstText = first.description, secondText = second.description
            #expect(firstText.replacingOccurrences(of: "\"first\"", with: "\"second\"") == secondText)
        }
    }

    @Test func aReplayedWriteHasNoEffect() async throws {
        try await withService(seed: true) { harness in
            let restaurantId = try await newRestaurant(harness)
            let itemId = try await newItem(harness, restaurantId: restaurantId, stock: 10)
            let userId = try await newUser(harness)
            let restock = keyed(freshKey("restock"), id: "r", ["itemId": .string(itemId), "quantity": 5])
            let order = keyed(freshKey("order"), id: "o", ["userId": .string(userId), "items": [["itemId": .string(itemId), "quantity": 3]], "deliveryAddress": "1 Way"])
            let review = keyed(freshKey("review"), id: "v", ["userId": .string(userId), "restaurantId": .string(restaurantId), "rating": 5, "text": "x"])
            for _ in 0..<3 {
                _ = try await okResult(harness, .restockMenuItem, restock)
                _ = try await okResult(harness, .placeOrder, order)
                _ = try await okResult(harness, .addReview, review)
            }
            let menu = try await okResult(harness, .getMenu, request(params: ["restaurantId": .string(restaurantId)]))
            #expect(menu["items"]?[0]?["stock"]?.intValue == 10 + 5 - 3)
            let orders = try await okResult(harness, .listOrders, request(params: ["userId": .string(userId)]))
            #expect(orders["orders"]?.arrayValue?.count == 1)
            let restaurant = try await okResult(harness, .getRestaurant, request(params: ["restaurantId": .string(restaurantId)]))
            #expect(restaurant["restaurant"]?["reviewCount"]?.intValue == 1)
        }
    }

    @Test func paramsEqualAsJSONValuesAreTheSameRequest() async throws {
        try await withService(seed: true) { harness in
            let itemId = try await newItem(harness, restaurantId: try await newRestaurant(harness), stock: 0)
            let key = freshKey("canonical")
            let address = try harness.address(.restockMenuItem)
            let first = try await call(address, bytes(#"{"v":1,"idempotencyKey":"\#(key)","params":{"itemId":"\#(itemId)","quantity":2}}"#))
            // Members in another order, 2 spelled 2.0, white space, an explicit null id.
            let same = try await call(address, bytes(#"{ "params" : { "quantity" : 2.0 , "itemId" : "\#(itemId)" }, "id": null, "idempotencyKey" : "\#(key)", "v" : 1 }"#))
            #expect(first.ok == true && same.ok == true, "\(first) / \(same)")
            #expect(same.result == first.result)
            let menuItem = try await okResult(harness, .getMenu, request(params: ["restaurantId": first.result?["item"]?["restaurantId"] ?? .null]))
            #expect(menuItem["items"]?[0]?["stock"]?.intValue == 2)
        }
    }

    @Test func aBoundKeyWithOtherParamsOrAnotherUseCaseIsAConflictNamingTheKey() async throws {
        try await withService(seed: true) { harness in
            let itemId = try await newItem(harness, restaurantId: try await newRestaurant(harness), stock: 0)
            let key = freshKey("conflict")
            _ = try await okResult(harness, .restockMenuItem, keyed(key, id: "a", ["itemId": .string(itemId), "quantity": 2]))
            let otherParams = try await call(try harness.address(.restockMenuItem), keyed(key, id: "b", ["itemId": .string(itemId), "quantity": 3]))
            #expect(otherParams.code == "conflict", "\(otherParams)")
            #expect(otherParams.message?.contains("idempotencyKey") == true, "\(otherParams)")
            let otherUseCase = try await call(try harness.address(.registerUser), keyed(key, id: "c", ["name": "X", "email": .string(uniqueEmail("c"))]))
            #expect(otherUseCase.code == "conflict", "\(otherUseCase)")
            #expect(otherUseCase.message?.contains("idempotencyKey") == true)
            // Neither took effect.
            let restaurantId = try #require(try await okResult(harness, .restockMenuItem, request(params: ["itemId": .string(itemId), "quantity": 1]))["item"]?["restaurantId"])
            let menu = try await okResult(harness, .getMenu, request(params: ["restaurantId": restaurantId]))
            #expect(menu["items"]?[0]?["stock"]?.intValue == 3)
        }
    }

    @Test func aRefusedWriteBindsNothingAndItsKeyWorksLater() async throws {
        try await withService(seed: true) { harness in
            let restaurantId = try await newRestaurant(harness)
            let itemId = try await newItem(harness, restaurantId: restaurantId, stock: 1)
            let userId = try await newUser(harness)
            let order = keyed(freshKey("refused"), id: "o", ["userId": .string(userId), "items": [["itemId": .string(itemId), "quantity": 2]], "deliveryAddress": "1 Way"])
            let refused = try await call(try harness.address(.placeOrder), order)
            #expect(refused.code == "business_rule", "\(refused)")
            _ = try await okResult(harness, .restockMenuItem, request(params: ["itemId": .string(itemId), "quantity": 1]))
            let placed = try await okResult(harness, .placeOrder, order)
            #expect(placed["order"]?["items"]?[0]?["quantity"]?.intValue == 2)
        }
    }

    @Test func readsIgnoreTheKeyAndBindNothing() async throws {
        try await withService(seed: true) { harness in
            let key = freshKey("read")
            let get = try await okResult(harness, .getRestaurant, keyed(key, id: "g", ["restaurantId": "r-000001"]))
            #expect(get["restaurant"]?["id"] == "r-000001")
            let other = try await okResult(harness, .getRestaurant, keyed(key, id: "h", ["restaurantId": "r-000002"]))
            #expect(other["restaurant"]?["id"] == "r-000002")
            let registered = try await okResult(harness, .registerUser, keyed(key, id: "w", ["name": "After Read", "email": .string(uniqueEmail("after-read"))]))
            #expect(registered["user"]?["name"] == "After Read")
        }
    }

    @Test func aBoundWriteIsReplayedEvenAfterItsUserWasDeactivated() async throws {
        try await withService(seed: true) { harness in
            let userId = try await newUser(harness)
            let save = keyed(freshKey("fav"), id: "s", ["userId": .string(userId), "restaurantId": "r-000005"])
            let first = try await okResult(harness, .saveFavoriteRestaurant, save)
            _ = try await okResult(harness, .deactivateUser, request(params: ["userId": .string(userId)]))
            let fresh = try await call(try harness.address(.saveFavoriteRestaurant), request(params: ["userId": .string(userId), "restaurantId": "r-000005"]))
            #expect(fresh.code == "unauthorized", "without the key the inactive user is refused: \(fresh)")
            let replay = try await okResult(harness, .saveFavoriteRestaurant, save)
            #expect(replay == first)
        }
    }

    @Test(arguments: [ServiceConfiguration.StoreKind.sqlite, .memory])
    func requestsRacingWithOneKeyTakeEffectOnceAndAllGetItsResult(_ store: ServiceConfiguration.StoreKind) async throws {
        try await withService(seed: true, configure: { $0.store = store }) { harness in
            let restaurantId = try await newRestaurant(harness)
            let itemId = try await newItem(harness, restaurantId: restaurantId, stock: 100)
            let userId = try await newUser(harness)
            let body = keyed(freshKey("race"), id: "race", ["userId": .string(userId), "items": [["itemId": .string(itemId), "quantity": 1]], "deliveryAddress": "1 Way"])
            let address = try harness.address(.placeOrder)
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<32 {
                    group.addTask { try await call(address, body) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.ok == true }, "\(replies.filter { $0.ok != true }.prefix(2))")
            #expect(Set(replies.compactMap { $0.result?["order"]?["id"]?.stringValue }).count == 1)
            let menu = try await okResult(harness, .getMenu, request(params: ["restaurantId": .string(restaurantId)]))
            #expect(menu["items"]?[0]?["stock"]?.intValue == 99)
            let orders = try await okResult(harness, .listOrders, request(params: ["userId": .string(userId)]))
            #expect(orders["orders"]?.arrayValue?.count == 1)
        }
    }
}

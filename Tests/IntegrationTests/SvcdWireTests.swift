import Foundation
import Testing
import SvcdTestSupport
import WireContract
import WireJSON
import WireTestSupport

/// The 23 use cases in the contract's fixed endpoint order (port base + 1 … + 23).
let contractUseCaseOrder = [
    "RegisterUser", "GetUserProfile", "UpdateUserProfile", "DeactivateUser", "StartSubscription",
    "CreateRestaurant", "GetRestaurant", "ListRestaurants", "SearchRestaurants", "SaveFavoriteRestaurant",
    "RemoveFavoriteRestaurant", "GetFavoriteRestaurants", "AddReview", "GetReviews", "CalculateRestaurantScore",
    "AddMenuItem", "RestockMenuItem", "GetMenu", "PlaceOrder", "GetOrder", "ListOrders", "LoadFeed",
    "CancelOrder",
]

private let userKeys: Set<String> = ["id", "name", "email", "joinedAt", "isActive", "subscriptionActiveUntil"]
private let profileKeys: Set<String> = ["id", "name", "email", "membershipTier", "canAccessPremiumContent"]
private let restaurantKeys: Set<String> = [
    "id", "name", "cuisine", "rating", "reviewCount", "priceLevel", "address", "latitude", "longitude",
    "imageUrl", "phoneNumber", "website", "openingHours",
]
private let reviewKeys: Set<String> = ["id", "restaurantId", "userId", "rating", "text", "createdAt"]
private let itemKeys: Set<String> = ["id", "restaurantId", "name", "priceCents", "currency", "stock"]
private let orderKeys: Set<String> = [
    "id", "userId", "items", "subtotalCents", "discountCents", "taxCents", "totalCents", "currency",
    "deliveryAddress", "createdAt", "status", "cancelledAt",
]
private let orderLineKeys: Set<String> = ["itemId", "quantity", "unitPriceCents"]
private let feedItemKeys: Set<String> = ["id", "title", "imageUrl"]

private func keys(_ value: JSONValue?) -> Set<String> {
    Set(value?.objectValue?.keys ?? [])
}

/// ISO-8601 UTC with milliseconds, e.g. `2026-11-21T20:43:28.175Z`.
private func isTimestamp(_ value: JSONValue?) -> Bool {
    guard let text = value?.stringValue else { return false }
    return text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil
}

/// (subtotal − discount) × 0.08, rounded half to even, in integer arithmetic.
private func expectedTax(onTaxable amount: Int) -> Int {
    let (quotient, remainder) = (amount * 8).quotientAndRemainder(dividingBy: 100)
    if remainder * 2 > 100 || (remainder * 2 == 100 && quotient % 2 == 1) { return quotient + 1 }
    return quotient
}

/// Calls use cases of one svcd by name.
struct Wire {
    let endpoints: EndpointsFile

    func reply(_ useCase: UseCaseName, _ params: JSONValue, id: String? = nil) async throws -> Reply {
        let reply = try await call(try endpoints.address(useCase), request(id: id ?? useCase.rawValue, params: params))
        #expect(reply.version == 1, "\(useCase): \(reply)")
        #expect(reply.id == .string(id ?? useCase.rawValue), "\(useCase): the id is echoed")
        return reply
    }

    /// The result of a call that must succeed.
    func ok(_ useCase: UseCaseName, _ params: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let reply = try await reply(useCase, params)
        try #require(reply.ok == true, "\(useCase) failed: \(reply)", sourceLocation: sourceLocation)
        return try #require(reply.result, "\(useCase) has no result: \(reply)", sourceLocation: sourceLocation)
    }

    /// The error code of a call that must be refused.
    func refusal(_ useCase: UseCaseName, _ params: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String? {
        let reply = try await reply(useCase, params)
        #expect(reply.ok == false, "\(useCase) should have been refused: \(reply)", sourceLocation: sourceLocation)
        return reply.code
    }
}

@Suite(.sharedSvcd)
struct SvcdWireTests {
    @Test func endpointsFileListsUseCasesInContractOrder() async throws {
        let running = try SharedSvcd.running()
        let endpoints = running.endpoints
        #expect(try running.child.endpointsFileUseCaseOrder() == contractUseCaseOrder)
        #expect(endpoints.useCases.count == contractUseCaseOrder.count)
        #expect(endpoints.pid == running.child.pid, "pid in endpoints.json is the child's pid")
        var ports = Set<Int>()
        for name in contractUseCaseOrder {
            let address = try endpoints.address(try #require(UseCaseName(rawValue: name)))
            #expect(address.hasPrefix("tcp://127.0.0.1:"), "\(name): \(address)")
            let port = try #require(Int(address.split(separator: ":").last ?? ""), "\(name): \(address)")
            #expect(port > 0 && port < 65536)
            ports.insert(port)
        }
        #expect(ports.count == contractUseCaseOrder.count, "every use case has its own port")
        // The file is complete and parseable JSON ending in a newline (written atomically).
        let text = try String(contentsOfFile: running.child.dataDirectory + "/endpoints.json", encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: running.child.dataDirectory).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "no temporary file is left behind: \(leftovers)")
        // The contract's endpoints.json also names the admin endpoint and its CURVE keys.
        let admin = try #require(endpoints.admin, "endpoints.json has an admin address")
        #expect(admin.hasPrefix("tcp://127.0.0.1:"))
        #expect(endpoints.adminServerKey?.utf8.count == 40, "a 40-character Z85 server key")
        for (key, file) in [("adminClientPublicKeyFile", endpoints.adminClientPublicKeyFile), ("adminClientSecretKeyFile", endpoints.adminClientSecretKeyFile)] {
            let path = try #require(file, "endpoints.json has \(key)")
            #expect(path.hasPrefix("/"), "\(key) is absolute: \(path)")
            let key = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(key.utf8.count == 40, "one 40-character Z85 key in \(path)")
        }
        let secret = try #require(endpoints.adminClientSecretKeyFile)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: secret)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600, "the secret key file is private to its owner")
    }

    @Test func everyUseCaseAnswersOverTheWireFromSvcd() async throws {
        let running = try SharedSvcd.running()
        let wire = Wire(endpoints: running.endpoints)
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        var called = Set<String>()

        // Seeded data.
        let seeded = try await wire.ok(.getRestaurant, ["restaurantId": "r-000001"])
        called.insert("GetRestaurant")
        #expect(keys(seeded) == ["restaurant"])
        #expect(keys(seeded["restaurant"]) == restaurantKeys, "without userId there is no isFavorite")
        #expect(seeded["restaurant"]?["name"] == "Golden Spoon Italian")

        // RegisterUser → user.
        let email = "it-\(tag)@example.com"
        let registered = try await wire.ok(.registerUser, ["name": "  Integration Tester  ", "email": .string(email)])
        called.insert("RegisterUser")
        #expect(keys(registered) == ["user"])
        let user = try #require(registered["user"])
        #expect(keys(user) == userKeys)
        let userId = try #require(user["id"]?.stringValue)
        #expect(!userId.isEmpty)
        #expect(user["name"] == "Integration Tester", "names are trimmed")
        #expect(user["email"] == .string(email))
        #expect(isTimestamp(user["joinedAt"]))
        #expect(user["isActive"] == true)
        #expect(user["subscriptionActiveUntil"] == .null)
        #expect(try await wire.refusal(.registerUser, ["name": "Dup", "email": .string(email.uppercased())]) == "conflict")

        // GetUserProfile → profile.
        let profile = try await wire.ok(.getUserProfile, ["userId": .string(userId)])
        called.insert("GetUserProfile")
        #expect(keys(profile["profile"]) == profileKeys)
        #expect(profile["profile"]?["membershipTier"] == "bronze")
        #expect(profile["profile"]?["canAccessPremiumContent"] == false)
        #expect(profile["profile"]?["email"] == .string(email))

        // UpdateUserProfile → user.
        let updated = try await wire.ok(.updateUserProfile, ["userId": .string(userId), "name": "Integration Renamed"])
        called.insert("UpdateUserProfile")
        #expect(keys(updated["user"]) == userKeys)
        #expect(updated["user"]?["name"] == "Integration Renamed")
        #expect(updated["user"]?["email"] == .string(email))
        #expect(updated["user"]?["id"] == .string(userId))

        // StartSubscription → user with subscriptionActiveUntil; premium access follows.
        let subscribed = try await wire.ok(.startSubscription, ["userId": .string(userId), "months": 2])
        called.insert("StartSubscription")
        #expect(keys(subscribed["user"]) == userKeys)
        #expect(isTimestamp(subscribed["user"]?["subscriptionActiveUntil"]))
        let until = try #require(subscribed["user"]?["subscriptionActiveUntil"]?.stringValue)
        let joined = try #require(user["joinedAt"]?.stringValue)
        #expect(until > joined, "the subscription ends after the user joined")
        #expect(try await wire.ok(.getUserProfile, ["userId": .string(userId)])["profile"]?["canAccessPremiumContent"] == true)

        // CreateRestaurant → restaurant.
        let restaurantName = "Zq Integration \(tag)"
        let cuisine = "Integrationese\(tag)"
        let created = try await wire.ok(.createRestaurant, [
            "name": .string(restaurantName), "cuisine": .string(cuisine), "priceLevel": 2, "address": "1 Test Way",
            "latitude": 51.5, "longitude": -0.125, "openingHours": ["Mon-Fri 09:00-17:00"],
        ])
        called.insert("CreateRestaurant")
        #expect(keys(created) == ["restaurant"])
        let restaurant = try #require(created["restaurant"])
        #expect(keys(restaurant) == restaurantKeys)
        let restaurantId = try #require(restaurant["id"]?.stringValue)
        #expect(restaurant["name"] == .string(restaurantName))
        #expect(restaurant["rating"]?.doubleValue == 0)
        #expect(restaurant["reviewCount"] == 0)
        #expect(restaurant["priceLevel"] == 2)
        #expect(restaurant["latitude"]?.doubleValue == 51.5)
        #expect(restaurant["longitude"]?.doubleValue == -0.125)
        #expect(restaurant["imageUrl"] == .null)
        #expect(restaurant["phoneNumber"] == .null)
        #expect(restaurant["website"] == .null)
        #expect(restaurant["openingHours"] == ["Mon-Fri 09:00-17:00"])

        // GetRestaurant with userId → isFavorite.
        let notYet = try await wire.ok(.getRestaurant, ["restaurantId": .string(restaurantId), "userId": .string(userId)])
        #expect(keys(notYet["restaurant"]) == restaurantKeys.union(["isFavorite"]))
        #expect(notYet["restaurant"]?["isFavorite"] == false)
        #expect(try await wire.refusal(.getRestaurant, ["restaurantId": "r-999999"]) == "not_found")

        // SaveFavoriteRestaurant / GetFavoriteRestaurants / RemoveFavoriteRestaurant → favoriteCount, restaurants.
        let saved = try await wire.ok(.saveFavoriteRestaurant, ["userId": .string(userId), "restaurantId": .string(restaurantId)])
        called.insert("SaveFavoriteRestaurant")
        #expect(saved == ["favoriteCount": 1])
        #expect(try await wire.ok(.saveFavoriteRestaurant, ["userId": .string(userId), "restaurantId": "r-000001"]) == ["favoriteCount": 2])
        #expect(try await wire.ok(.saveFavoriteRestaurant, ["userId": .string(userId), "restaurantId": "r-000001"]) == ["favoriteCount": 2], "saving again is a no-op")
        let isFavorite = try await wire.ok(.getRestaurant, ["restaurantId": .string(restaurantId), "userId": .string(userId)])
        #expect(isFavorite["restaurant"]?["isFavorite"] == true)
        let favorites = try await wire.ok(.getFavoriteRestaurants, ["userId": .string(userId)])
        called.insert("GetFavoriteRestaurants")
        #expect(keys(favorites) == ["restaurants"])
        #expect(favorites["restaurants"]?.arrayValue?.map { $0["id"]?.stringValue } == ["r-000001", restaurantId], "newest saved first")
        #expect(favorites["restaurants"]?.arrayValue?.allSatisfy { keys($0) == restaurantKeys } == true)
        let removed = try await wire.ok(.removeFavoriteRestaurant, ["userId": .string(userId), "restaurantId": "r-000001"])
        called.insert("RemoveFavoriteRestaurant")
        #expect(removed == ["favoriteCount": 1])

        // AddReview → review + restaurantRating; GetReviews pages; CalculateRestaurantScore.
        let firstReview = try await wire.ok(.addReview, ["userId": .string(userId), "restaurantId": .string(restaurantId), "rating": 4, "text": "Nice"])
        called.insert("AddReview")
        #expect(keys(firstReview) == ["review", "restaurantRating"])
        #expect(keys(firstReview["review"]) == reviewKeys)
        #expect(firstReview["review"]?["rating"] == 4)
        #expect(firstReview["review"]?["text"] == "Nice")
        #expect(firstReview["review"]?["restaurantId"] == .string(restaurantId))
        #expect(firstReview["review"]?["userId"] == .string(userId))
        #expect(isTimestamp(firstReview["review"]?["createdAt"]))
        #expect(firstReview["restaurantRating"]?.doubleValue == 4)
        let secondReview = try await wire.ok(.addReview, ["userId": .string(userId), "restaurantId": .string(restaurantId), "rating": 5, "text": ""])
        #expect(secondReview["restaurantRating"]?.doubleValue == 4.5)
        let reviewIds = Set([firstReview["review"]?["id"]?.stringValue, secondReview["review"]?["id"]?.stringValue].compactMap { $0 })
        #expect(reviewIds.count == 2)

        let page1 = try await wire.ok(.getReviews, ["restaurantId": .string(restaurantId), "limit": 1])
        called.insert("GetReviews")
        #expect(keys(page1) == ["reviews", "nextCursor"])
        let cursor = try #require(page1["nextCursor"]?.stringValue, "a full page has a nextCursor")
        let page2 = try await wire.ok(.getReviews, ["restaurantId": .string(restaurantId), "limit": 1, "cursor": .string(cursor)])
        #expect(page2["nextCursor"] == .null, "the last page has no nextCursor")
        let paged = (page1["reviews"]?.arrayValue ?? []) + (page2["reviews"]?.arrayValue ?? [])
        #expect(paged.count == 2)
        #expect(paged.allSatisfy { keys($0) == reviewKeys })
        #expect(Set(paged.compactMap { $0["id"]?.stringValue }) == reviewIds, "paging visits each review once")
        if let newer = paged.first?["createdAt"]?.stringValue, let older = paged.last?["createdAt"]?.stringValue {
            #expect(newer >= older, "reviews are newest first")
        }

        let score = try await wire.ok(.calculateRestaurantScore, ["restaurantId": .string(restaurantId)])
        called.insert("CalculateRestaurantScore")
        #expect(keys(score) == ["score"])
        // 4.5 × 0.5 + min(2/100, 1) × 0.25 + min(2/20, 1) × 0.25
        let expectedScore = 4.5 * 0.5 + 0.02 * 0.25 + 0.1 * 0.25
        #expect(abs((score["score"]?.doubleValue ?? -1) - expectedScore) < 1e-9, "score \(String(describing: score["score"]))")

        // ListRestaurants and SearchRestaurants.
        let byCuisine = try await wire.ok(.listRestaurants, ["cuisine": .string(cuisine.lowercased())])
        called.insert("ListRestaurants")
        #expect(keys(byCuisine) == ["restaurants", "nextCursor"])
        #expect(byCuisine["restaurants"]?.arrayValue?.map { $0["id"]?.stringValue } == [restaurantId], "cuisine matches case-insensitively")
        #expect(byCuisine["restaurants"]?[0]?["rating"]?.doubleValue == 4.5)
        #expect(byCuisine["nextCursor"] == .null)
        let top = try await wire.ok(.listRestaurants, ["limit": 3])
        let topRows = try #require(top["restaurants"]?.arrayValue)
        #expect(topRows.count == 3)
        #expect(top["nextCursor"]?.stringValue != nil)
        let ratings = topRows.compactMap { $0["rating"]?.doubleValue }
        #expect(ratings == ratings.sorted(by: >), "sorted by rating descending")
        let next = try await wire.ok(.listRestaurants, ["limit": 3, "cursor": top["nextCursor"] ?? .null])
        let nextIds = Set(next["restaurants"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        #expect(nextIds.count == 3)
        #expect(nextIds.isDisjoint(with: topRows.compactMap { $0["id"]?.stringValue }), "the next page continues after the first")

        let search = try await wire.ok(.searchRestaurants, ["query": .string("zq integration \(tag)")])
        called.insert("SearchRestaurants")
        #expect(keys(search) == ["restaurants"])
        #expect(search["restaurants"]?.arrayValue?.map { $0["id"]?.stringValue } == [restaurantId])
        #expect(try await wire.refusal(.searchRestaurants, ["query": "   "]) == "invalid_input")

        // AddMenuItem / RestockMenuItem / GetMenu → item, items.
        let dishResult = try await wire.ok(.addMenuItem, ["restaurantId": .string(restaurantId), "name": "Test Dish", "priceCents": 1250, "currency": "USD", "stock": 10])
        called.insert("AddMenuItem")
        #expect(keys(dishResult) == ["item"])
        let dish = try #require(dishResult["item"])
        #expect(keys(dish) == itemKeys)
        let dishId = try #require(dish["id"]?.stringValue)
        #expect(dish["restaurantId"] == .string(restaurantId))
        #expect(dish["priceCents"] == 1250)
        #expect(dish["currency"] == "USD")
        #expect(dish["stock"] == 10)
        let pie = try await wire.ok(.addMenuItem, ["restaurantId": .string(restaurantId), "name": "Apple Pie", "priceCents": 450, "currency": "USD", "stock": 5])
        let pieId = try #require(pie["item"]?["id"]?.stringValue)
        let restocked = try await wire.ok(.restockMenuItem, ["itemId": .string(dishId), "quantity": 5])
        called.insert("RestockMenuItem")
        #expect(keys(restocked["item"]) == itemKeys)
        #expect(restocked["item"]?["stock"] == 15)

        // PlaceOrder → order with consistent money.
        let discount = 137
        let orderResult = try await wire.ok(.placeOrder, [
            "userId": .string(userId), "items": [["itemId": .string(dishId), "quantity": 3], ["itemId": .string(pieId), "quantity": 1]],
            "discountCents": .int(discount), "deliveryAddress": "2 Test Way",
        ])
        called.insert("PlaceOrder")
        #expect(keys(orderResult) == ["order"])
        let order = try #require(orderResult["order"])
        #expect(keys(order) == orderKeys)
        let orderId = try #require(order["id"]?.stringValue)
        let lines = try #require(order["items"]?.arrayValue)
        #expect(lines.allSatisfy { keys($0) == orderLineKeys })
        #expect(lines.map { $0["itemId"]?.stringValue } == [dishId, pieId], "lines in the order sent")
        #expect(lines.map { $0["unitPriceCents"]?.intValue } == [1250, 450])
        let subtotal = 3 * 1250 + 450
        #expect(order["subtotalCents"]?.intValue == subtotal)
        #expect(order["discountCents"]?.intValue == discount)
        let tax = expectedTax(onTaxable: subtotal - discount)
        #expect(order["taxCents"]?.intValue == tax, "taxCents = round-half-even((\(subtotal) − \(discount)) × 0.08)")
        #expect(order["totalCents"]?.intValue == subtotal - discount + tax)
        #expect(order["currency"] == "USD")
        #expect(order["deliveryAddress"] == "2 Test Way")
        #expect(order["userId"] == .string(userId))
        #expect(isTimestamp(order["createdAt"]))
        #expect(order["status"] == "placed" && order["cancelledAt"] == .null)

        let menu = try await wire.ok(.getMenu, ["restaurantId": .string(restaurantId)])
        called.insert("GetMenu")
        #expect(keys(menu) == ["items"])
        let menuItems = try #require(menu["items"]?.arrayValue)
        #expect(menuItems.map { $0["name"]?.stringValue } == ["Apple Pie", "Test Dish"], "menus by name")
        #expect(menuItems.map { $0["stock"]?.intValue } == [4, 12], "the order took its stock")
        #expect(menuItems.allSatisfy { keys($0) == itemKeys })

        // GetOrder / ListOrders → order, orders.
        let fetched = try await wire.ok(.getOrder, ["orderId": .string(orderId)])
        called.insert("GetOrder")
        #expect(fetched["order"] == order)
        #expect(try await wire.refusal(.getOrder, ["orderId": "o-999999"]) == "not_found")
        let orders = try await wire.ok(.listOrders, ["userId": .string(userId)])
        called.insert("ListOrders")
        #expect(keys(orders) == ["orders", "nextCursor"])
        #expect(orders["orders"] == [order])
        #expect(orders["nextCursor"] == .null)

        // LoadFeed → items [{id, title, imageUrl}], newest created first.
        let feed = try await wire.ok(.loadFeed, ["limit": 5])
        called.insert("LoadFeed")
        #expect(keys(feed) == ["items", "nextCursor"])
        let feedItems = try #require(feed["items"]?.arrayValue)
        #expect(feedItems.count == 5)
        #expect(feedItems.allSatisfy { keys($0) == feedItemKeys })
        #expect(feedItems.first?["id"] == .string(restaurantId))
        #expect(feedItems.first?["title"] == .string(restaurantName))
        #expect(feed["nextCursor"]?.stringValue != nil)

        // CancelOrder → the order cancelled, its stock returned; a second cancel answers it as it is.
        let second = try await wire.ok(.placeOrder, ["userId": .string(userId), "items": [["itemId": .string(dishId), "quantity": 2]], "deliveryAddress": "2 Test Way"])
        let secondId = try #require(second["order"]?["id"]?.stringValue)
        let cancelled = try await wire.ok(.cancelOrder, ["orderId": .string(secondId), "userId": .string(userId)])
        called.insert("CancelOrder")
        #expect(keys(cancelled) == ["order"])
        #expect(keys(cancelled["order"]) == orderKeys)
        #expect(cancelled["order"]?["status"] == "cancelled")
        #expect(isTimestamp(cancelled["order"]?["cancelledAt"]))
        #expect(try await wire.ok(.cancelOrder, ["orderId": .string(secondId), "userId": .string(userId)]) == cancelled)
        #expect(try await wire.ok(.getMenu, ["restaurantId": .string(restaurantId)])["items"]?.arrayValue?.map { $0["stock"]?.intValue } == [4, 12])
        #expect(try await wire.refusal(.cancelOrder, ["orderId": "o-000001", "userId": .string(userId)]) == "unauthorized")

        // DeactivateUser → user; afterwards most use cases refuse the user, order history stays readable.
        let deactivated = try await wire.ok(.deactivateUser, ["userId": .string(userId)])
        called.insert("DeactivateUser")
        #expect(keys(deactivated["user"]) == userKeys)
        #expect(deactivated["user"]?["isActive"] == false)
        #expect(try await wire.refusal(.getUserProfile, ["userId": .string(userId)]) == "unauthorized")
        #expect(try await wire.refusal(.saveFavoriteRestaurant, ["userId": .string(userId), "restaurantId": "r-000002"]) == "unauthorized")
        #expect(try await wire.ok(.getOrder, ["orderId": .string(orderId)])["order"]?["id"] == .string(orderId))
        #expect(try await wire.ok(.listOrders, ["userId": .string(userId)])["orders"]?.arrayValue?.count == 2)
        #expect(try await wire.ok(.deactivateUser, ["userId": .string(userId)])["user"]?["isActive"] == false, "deactivating again succeeds")

        #expect(called == Set(contractUseCaseOrder), "not called: \(Set(contractUseCaseOrder).subtracting(called))")
    }

    @Test(.enabled("needs python3 with pyzmq") { try await pythonHasZMQ() })
    func pythonClientReadsASeededRestaurant() async throws {
        let running = try SharedSvcd.running()
        let address = try running.endpoints.address(.getRestaurant)
        let script = """
            import json, sys, zmq
            ctx = zmq.Context()
            s = ctx.socket(zmq.REQ)
            s.setsockopt(zmq.LINGER, 0)
            s.connect(sys.argv[1])
            s.send(json.dumps({"v": 1, "id": "py-1", "params": {"restaurantId": "r-000001"}}).encode())
            if not s.poll(5000):
                print("TIMEOUT")
                sys.exit(2)
            r = json.loads(s.recv())
            print(json.dumps({"id": r["id"], "ok": r["ok"], "name": r["result"]["restaurant"]["name"]}))
            s.close()
            ctx.term()
            """
        let outcome = try await runTool("/usr/bin/env", ["python3", "-c", script, address], timeout: 15)
        #expect(outcome.status == 0, "python exited with \(String(describing: outcome.status)); stderr: \(outcome.stderr)")
        let printed = try JSONParser.parse(Array(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
        #expect(printed["id"] == "py-1")
        #expect(printed["ok"] == true)
        #expect(printed["name"] == "Golden Spoon Italian")
    }
}

/// Whether `python3 -c "import zmq"` works here.
func pythonHasZMQ() async throws -> Bool {
    let outcome = try await runTool("/usr/bin/env", ["python3", "-c", "import zmq"], timeout: 15)
    return outcome.status == 0
}

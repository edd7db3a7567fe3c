import Foundation
import RestaurantClient
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

/// The events of an svcd child process, seen from outside as a subscriber sees them: writers
/// racing on every write endpoint, with refusals, idempotent replays and no-ops among their
/// requests, and Clone-pattern subscribers (RestaurantClient's event stream) that must see
/// exactly one event per acknowledged change, in one sequence without gaps, each carrying what
/// the write's reply said, and nothing else.
@Suite struct EventStreamTests {
    /// What a racer expects of one of its writes' events.
    struct Expected: Sendable {
        let type: EventType
        let key: String
        let data: JSONValue
    }

    @Test func racingWritersOnEveryWriteEndpointAppendOneEventPerChangeAndNothingElse() async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            let client = try RestaurantClient(endpointsFile: EndpointsFile.path(in: child.dataDirectory))
            let all = EventTrail.follow(client)
            let some = EventTrail.follow(client, types: [.orderPlaced, .userDeactivated])
            defer { Task { await all.stop(); await some.stop() } }

            let racers = 12
            let expected = try await withThrowingTaskGroup(of: (Int, [Expected]).self) { group in
                for racer in 0..<racers { group.addTask { (racer, try await Self.race(racer, endpoints)) } }
                var scripts = Array(repeating: [Expected](), count: racers)
                for try await (racer, script) in group { scripts[racer] = script }
                return scripts
            }
            // The marker: a user registered and deactivated after every racer's last write.
            let marker = try await Self.ok(endpoints, .registerUser, ["name": "Marker", "email": .string(uniqueEmail("marker"))])
            let markerId = try #require(marker["user"]?["id"]?.stringValue)
            _ = try await Self.ok(endpoints, .deactivateUser, ["userId": .string(markerId)])

            let events = try await all.eventsBefore(key: markerId)
            let total = expected.map(\.count).reduce(0, +)
            #expect(events.count == total, "one event per acknowledged change: \(events.count) events for \(total) changes")
            #expect(events.areConsecutive(), "seqs 1…\(total) without gap or repeat: \(events.map(\.seq).prefix(20))…")
            for (racer, script) in expected.enumerated() {
                let keys = Set(script.map(\.key))
                let mine = events.filter { keys.contains($0.key) }
                #expect(mine.map(\.type) == script.map(\.type.rawValue), "racer \(racer): the events of its keys, in seq order, are its changes in order")
                for (event, expectation) in zip(mine, script) {
                    #expect(event.key == expectation.key && JSONValue.object(event.data) == expectation.data, "racer \(racer), seq \(event.seq) \(event.type): \(JSONValue.object(event.data)) ≠ \(expectation.data)")
                }
            }
            // The log serves the same events the stream delivered.
            var logged: [RestaurantEvent] = []
            while logged.count < total {
                let page = try await client.eventLog(after: logged.last?.seq ?? 0, limit: 1000)
                guard !page.events.isEmpty else { break }
                logged += page.events
            }
            #expect(logged.prefix(total).map(\.json) == events.map(\.json))
            // A subscriber of two types gets exactly those, in seq order, up to the marker's
            // deactivation (its last).
            let filtered = try await some.waitUntil(timeout: 20, "the marker's deactivation arrived") { $0.contains { $0.key == markerId } }
            let wanted = events.filter { $0.type == EventType.orderPlaced.rawValue || $0.type == EventType.userDeactivated.rawValue }
            #expect(filtered.dropLast().map(\.seq) == wanted.map(\.seq))
            #expect(filtered.count == racers * 2 + 1)
            await all.stop()
            await some.stop()
        }
    }

    /// One racer's script: every write use case, with a refusal, a replay or a no-op beside each
    /// change; its writes run one after another, concurrently with the other racers'. Returns
    /// the events its changes must have appended, in order, built from the replies.
    static func race(_ racer: Int, _ endpoints: EndpointsFile) async throws -> [Expected] {
        var expected: [Expected] = []
        func expect(_ type: EventType, _ key: String, _ data: JSONValue) { expected.append(Expected(type: type, key: key, data: data)) }
        let email = uniqueEmail("racer\(racer)")
        let key = "racer-\(racer)-\(UUID().uuidString)"

        let registered = try await ok(endpoints, .registerUser, ["name": .string("Racer \(racer)"), "email": .string(email)], key: key)
        let user = try #require(registered["user"]?["id"]?.stringValue)
        expect(.userRegistered, user, registered)
        // The replay is answered with the first result and appends nothing; the same address is a conflict.
        #expect(try await ok(endpoints, .registerUser, ["name": .string("Racer \(racer)"), "email": .string(email)], key: key) == registered)
        try await refused(endpoints, .registerUser, ["name": "Twin", "email": .string(email.uppercased())], "conflict")

        let renamed = try await ok(endpoints, .updateUserProfile, ["userId": .string(user), "name": .string("Renamed \(racer)")])
        expect(.userProfileUpdated, user, renamed)
        _ = try await ok(endpoints, .updateUserProfile, ["userId": .string(user), "name": .string("Renamed \(racer)")])
        try await refused(endpoints, .updateUserProfile, ["userId": .string(user), "email": "not an address"], "invalid_input")

        let saved = try await ok(endpoints, .saveFavoriteRestaurant, ["userId": .string(user), "restaurantId": "r-000001"])
        expect(.favoriteSaved, user, ["userId": .string(user), "restaurantId": "r-000001", "favoriteCount": saved["favoriteCount"] ?? nil])
        _ = try await ok(endpoints, .saveFavoriteRestaurant, ["userId": .string(user), "restaurantId": "r-000001"])
        _ = try await ok(endpoints, .removeFavoriteRestaurant, ["userId": .string(user), "restaurantId": "r-000002"])
        let removed = try await ok(endpoints, .removeFavoriteRestaurant, ["userId": .string(user), "restaurantId": "r-000001"])
        expect(.favoriteRemoved, user, ["userId": .string(user), "restaurantId": "r-000001", "favoriteCount": removed["favoriteCount"] ?? nil])

        let reviewed = String(format: "r-%06d", 3 + racer)
        let review = try await ok(endpoints, .addReview, ["userId": .string(user), "restaurantId": .string(reviewed), "rating": .int(1 + racer % 5), "text": "race"])
        expect(.reviewAdded, reviewed, review)
        try await refused(endpoints, .addReview, ["userId": .string(user), "restaurantId": .string(reviewed), "rating": 9, "text": "x"], "invalid_input")

        let subscribed = try await ok(endpoints, .startSubscription, ["userId": .string(user), "months": 1])
        expect(.subscriptionStarted, user, subscribed)

        let created = try await ok(endpoints, .createRestaurant, [
            "name": .string("Race \(racer)"), "cuisine": "Thai", "priceLevel": 2, "address": "1 Race Rd", "latitude": 1.5, "longitude": 2.5,
        ])
        let restaurant = try #require(created["restaurant"]?["id"]?.stringValue)
        expect(.restaurantCreated, restaurant, created)
        try await refused(endpoints, .createRestaurant, [
            "name": "Bad", "cuisine": "Thai", "priceLevel": 9, "address": "x", "latitude": 0, "longitude": 0,
        ], "invalid_input")

        let added = try await ok(endpoints, .addMenuItem, ["restaurantId": .string(restaurant), "name": "Curry", "priceCents": 600, "currency": "USD", "stock": 3])
        let item = try #require(added["item"]?["id"]?.stringValue)
        expect(.menuItemAdded, item, added)
        let restocked = try await ok(endpoints, .restockMenuItem, ["itemId": .string(item), "quantity": 2])
        expect(.menuItemRestocked, item, restocked)
        try await refused(endpoints, .restockMenuItem, ["itemId": "m-nowhere", "quantity": 2], "not_found")

        let ordered = try await ok(endpoints, .placeOrder, ["userId": .string(user), "items": [["itemId": .string(item), "quantity": 2]], "deliveryAddress": "1 Race Rd"])
        let order = try #require(ordered["order"]?["id"]?.stringValue)
        expect(.orderPlaced, order, ["order": ordered["order"] ?? nil, "stock": [["itemId": .string(item), "stock": 3]]])
        try await refused(endpoints, .placeOrder, ["userId": .string(user), "items": [["itemId": .string(item), "quantity": 10]], "deliveryAddress": "x"], "business_rule")

        let deactivated = try await ok(endpoints, .deactivateUser, ["userId": .string(user)])
        expect(.userDeactivated, user, deactivated)
        _ = try await ok(endpoints, .deactivateUser, ["userId": .string(user)])
        try await refused(endpoints, .placeOrder, ["userId": .string(user), "items": [["itemId": .string(item), "quantity": 1]], "deliveryAddress": "x"], "unauthorized")
        return expected
    }

    /// A request that must succeed; its `result`.
    static func ok(
        _ endpoints: EndpointsFile, _ useCase: UseCaseName, _ params: JSONValue, key: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let reply = try await call(try endpoints.address(useCase), request(id: "e", params: params, extra: key.map { [("idempotencyKey", .string($0))] } ?? []))
        try #require(reply.ok == true, "\(useCase): \(reply)", sourceLocation: sourceLocation)
        return try #require(reply.result, sourceLocation: sourceLocation)
    }

    /// A request that must be refused with `code`.
    static func refused(
        _ endpoints: EndpointsFile, _ useCase: UseCaseName, _ params: JSONValue, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let reply = try await call(try endpoints.address(useCase), request(id: "e", params: params))
        #expect(reply.ok == false && reply.code == code, "\(useCase): \(reply)", sourceLocation: sourceLocation)
    }
}

import Domain
import Foundation
import Persistence
import Synchronization
import Testing
import Transport
import WireContract
import WireJSON
import WireTestSupport
import ZeroMQ

/// The event endpoints on the wire: the log's params each refused with a clear error naming
/// them, `gone` with the oldest seq in a member of its own, the log served while the use cases
/// are drained, and the live stream's two frames filtered by ZeroMQ subscriptions.
@Suite struct EventEndpointTests {
    private func log(_ harness: ServiceHarness) throws -> String {
        try #require(try EndpointsFile.read(from: harness.dataDirectory).eventLog)
    }

    private func register(_ harness: ServiceHarness, _ count: Int) async throws {
        for index in 0..<count {
            let reply = try await call(try harness.address(.registerUser), request(id: "r", params: ["name": "E", "email": .string("e\(index)-\(UUID())@example.com")]))
            #expect(reply.ok == true, "\(reply)")
        }
    }

    @Test(arguments: [
        (JSONValue.object([:]), "after: is required"),
        (["after": "1"], "after: must be an integer"),
        (["after": 1.5], "after: must be an integer"),
        (["after": -1], "after: must not be negative"),
        (["after": 0, "limit": 0], "limit: must be between 1 and 1000"),
        (["after": 0, "limit": 1001], "limit: must be between 1 and 1000"),
        (["after": 0, "limit": "10"], "limit: must be an integer"),
        (["after": 0, "types": "OrderPlaced"], "types: must be an array of strings"),
        (["after": 0, "types": [1]], "types: must be an array of strings"),
        (["after": 0, "types": ["OrderPlaced", "Nope"]], "types: \"Nope\" is not an event type"),
    ] as [(JSONValue, String)])
    func theLogRefusesBadParamsNamingThem(_ params: JSONValue, _ message: String) async throws {
        try await withService { harness in
            let reply = try await call(try log(harness), request(id: "bad", params: params))
            #expect(reply.ok == false && reply.code == "invalid_input", "\(reply)")
            #expect(reply.message?.hasPrefix(message) == true, "\(reply)")
            #expect(reply.id == .string("bad"))
        }
    }

    @Test func theLogAnswersPagesFilteredBeforeTheLimitAndIgnoresUnknownParams() async throws {
        try await withService { harness in
            try await register(harness, 3)
            let restaurant = try await call(try harness.address(.createRestaurant), request(id: "c", params: [
                "name": "Log", "cuisine": "Thai", "priceLevel": 1, "address": "x", "latitude": 0, "longitude": 0,
            ]))
            #expect(restaurant.ok == true)
            let page = try await call(try log(harness), request(id: "p", params: ["after": 1, "limit": 1, "types": ["RestaurantCreated"], "other": true]))
            let events = try #require(page.result?["events"]?.arrayValue)
            #expect(events.count == 1 && events.first?["seq"] == 4 && events.first?["type"] == "RestaurantCreated", "\(page)")
            #expect(page.result?["lastSeq"] == 4)
            #expect(Set(events.first?.objectValue?.keys ?? []) == ["seq", "type", "at", "key", "data", "traceparent"], "every write's event carries its trace: \(events)")
            let none = try await call(try log(harness), request(id: "n", params: ["after": 4]))
            #expect(none.result?["events"] == [] && none.result?["lastSeq"] == 4)
            let malformed = try await call(try log(harness), Array("not json".utf8))
            #expect(malformed.code == "malformed", "\(malformed)")
        }
    }

    /// A log pruned up to its newest event: reading from before what it keeps is `gone`, with the
    /// oldest seq kept as `firstSeq`; reading from just before it is fine.
    @Test func readingPrunedEventsIsGoneNamingTheFirstSeqKept() async throws {
        try await withService(configure: { $0.store = .sqlite }) { harness in
            try await register(harness, 3)
            // Another connection to the same file prunes everything (as retention would, later).
            let store = try SQLiteStore(path: harness.dataDirectory + "/store.sqlite", events: nil)
            #expect(try await SQLiteEventRepository(store: store).removeEvents(writtenBefore: Timestamp(millisecondsSinceEpoch: .max)) == 2)
            try await store.close()
            let gone = try await call(try log(harness), request(id: "g", params: ["after": 1]))
            #expect(gone.ok == false && gone.code == "gone", "\(gone)")
            #expect(gone.json?["error"]?["firstSeq"] == 3, "\(gone)")
            #expect(gone.message?.contains("seq 3") == true)
            let fine = try await call(try log(harness), request(id: "f", params: ["after": 2]))
            #expect(fine.result?["events"]?.arrayValue?.count == 1 && fine.result?["lastSeq"] == 3, "\(fine)")
        }
    }

    @Test func theLogIsServedWhileTheUseCasesAreDrained() async throws {
        try await withService { harness in
            try await register(harness, 2)
            harness.service.availability.drain()
            let refused = try await call(try harness.address(.registerUser), request(id: "d", params: ["name": "D", "email": "d@example.com"]))
            #expect(refused.code == "unavailable")
            let page = try await call(try log(harness), request(id: "l", params: ["after": 0]))
            #expect(page.result?["lastSeq"] == 2, "\(page)")
            harness.service.availability.resume()
        }
    }

    /// Each live message is two frames, the type and the event; a subscription to one type's
    /// name gets only that type.
    @Test func liveMessagesAreTypeThenEventAndSubscriptionsFilterByType() async throws {
        try await withService { harness in
            let stream = try #require(try EndpointsFile.read(from: harness.dataDirectory).events)
            let heard = Atomic<Bool>(false)
            let received = Task {
                try await onThread { () -> [[UInt8]]? in
                    let client = try WireClient(.sub, connectTo: stream, receiveTimeout: 20_000)
                    defer { client.close() }
                    try client.socket.subscribe(Array("RestaurantCreated".utf8))
                    defer { heard.store(true, ordering: .releasing) }
                    return try client.receiveFrames()
                }
            }
            // A user (filtered out) and a restaurant, again until the subscription has reached the
            // publisher and the subscriber heard the restaurant.
            var rounds = 0
            while !heard.load(ordering: .acquiring), rounds < 500 {
                try await register(harness, 1)
                let reply = try await call(try harness.address(.createRestaurant), request(id: "c", params: [
                    "name": "Live", "cuisine": "Thai", "priceLevel": 1, "address": "x", "latitude": 0, "longitude": 0,
                ]))
                #expect(reply.ok == true)
                rounds += 1
                try await Task.sleep(for: .milliseconds(20))
            }
            let frames = try #require(try await received.value, "no live message")
            #expect(frames.count == 2)
            #expect(String(decoding: frames[0], as: UTF8.self) == "RestaurantCreated")
            let event = try JSONParser.parse(frames[1])
            #expect(event["type"] == "RestaurantCreated" && event["data"]?["restaurant"]?["name"] == "Live")
            #expect(event["seq"]?.intValue.map { $0 % 2 == 0 } == true, "users and restaurants alternate; the restaurants' seqs are even")
        }
    }
}

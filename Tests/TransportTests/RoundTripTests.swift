import Testing
import Transport
import WireJSON
import WireTestSupport

/// Every test in here runs against one shared service loaded with the sample data set, started
/// once for the whole suite (seeding takes about a second in debug builds) and stopped after it.
/// Each nested suite uses its own use-case endpoints, so they can run in parallel.
@Suite(.seededService)
struct SeededWireTests {}

extension SeededWireTests {
    @Suite struct RoundTrip {
        @Test func reqClientGetsSeededRestaurantWithEchoedId() async throws {
            let harness = try SeededService.harness()
            let reply = try await call(
                try harness.address(.getRestaurant),
                request(id: "rt-1", params: ["restaurantId": "r-000001", "userId": "u-000001"])
            )
            #expect(reply.frames.count == 1, "a REQ client receives only the body frame")
            #expect(reply.version == 1)
            #expect(reply.id == "rt-1")
            #expect(reply.ok == true, "\(reply)")
            let restaurant = try #require(reply.result?["restaurant"])
            #expect(restaurant["id"] == "r-000001")
            #expect(restaurant["name"] == "Golden Spoon Italian")
            #expect(restaurant["cuisine"] == "Italian")
            #expect(restaurant["openingHours"] == ["Mon-Fri 11:00-22:00", "Sat-Sun 10:00-23:00"])
            #expect(restaurant["isFavorite"]?.boolValue != nil, "isFavorite is present when userId is given")
            #expect(reply.json?["error"] == nil)
        }

        @Test func reqClientWithoutIdGetsNullIdAndNoIsFavorite() async throws {
            let harness = try SeededService.harness()
            let reply = try await call(try harness.address(.getRestaurant), request(params: ["restaurantId": "r-000002"]))
            #expect(reply.ok == true, "\(reply)")
            #expect(reply.id == .null)
            #expect(reply.result?["restaurant"]?["id"] == "r-000002")
            #expect(reply.result?["restaurant"]?.objectValue?.contains(key: "isFavorite") == false)
        }

        @Test func unknownRestaurantIsNotFound() async throws {
            let harness = try SeededService.harness()
            let reply = try await call(try harness.address(.getRestaurant), request(id: "nf", params: ["restaurantId": "r-999999"]))
            #expect(reply.ok == false)
            #expect(reply.code == "not_found")
            #expect(reply.id == "nf")
        }

        @Test func dealerWith200RequestsInFlightGetsEveryReplyMatchedById() async throws {
            let harness = try SeededService.harness()
            let address = try harness.address(.getRestaurant)
            let count = 200
            // Request i asks for restaurant r-(i % 300 + 1), so each reply's body can be checked
            // against the request its id names.
            @Sendable func restaurantId(_ index: Int) -> String {
                let number = String(index % 300 + 1)
                return "r-" + String(repeating: "0", count: 6 - number.count) + number
            }
            let replies = try await withClient(.dealer, address) { client in
                for index in 0..<count {
                    try client.send(body: request(id: "deal-\(index)", params: ["restaurantId": .string(restaurantId(index))]))
                }
                return try client.receiveReplies(upTo: count)
            }
            #expect(replies.count == count, "every pipelined request gets a reply")
            var seen = Set<Int>()
            for reply in replies {
                #expect(reply.frames.count == 2 && reply.frames[0].isEmpty, "a DEALER reply is [\"\", body]")
                let id = try #require(reply.id?.stringValue, "\(reply)")
                let index = try #require(id.hasPrefix("deal-") ? Int(id.dropFirst(5)) : nil, "unexpected id \(id)")
                #expect(seen.insert(index).inserted, "duplicate reply for \(id)")
                #expect(reply.ok == true, "\(reply)")
                #expect(reply.result?["restaurant"]?["id"]?.stringValue == restaurantId(index), "reply \(id) carries the wrong restaurant")
            }
            #expect(seen == Set(0..<count))
        }
    }
}

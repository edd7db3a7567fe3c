import Foundation
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

extension StressSuite {
    /// A flood far past capacity against a real svcd whose in-flight bound is too high to stop it
    /// (so only the queue-time target can): every request is answered `ok` or `overloaded`, no
    /// request that ran had waited past the target, and the writes refused had no effect.
    @Suite(.timeLimit(.minutes(3)))
    struct QueueTimeFloodTests {
        /// The queue-time target svcd runs with, in milliseconds.
        static let targetMilliseconds = 100

        @Test func aFloodIsAnsweredOkOrOverloadedNoRequestThatRanWaitedPastTheTargetAndRefusedWritesHadNoEffect() async throws {
            let arguments = ["--queue-time-target", String(Self.targetMilliseconds), "--max-in-flight", "8192"]
            try await withSvcd(seed: false, arguments: arguments) { child in
                let endpoints = try await child.endpoints(timeout: 60)
                let restaurant = try #require(try await setUp(try endpoints.address(.createRestaurant), [
                    "name": "Flood Kitchen", "cuisine": "Flood", "priceLevel": 2, "address": "1 Flood Way", "latitude": 10.5, "longitude": 20.5,
                ])["restaurant"]?["id"]?.stringValue)
                let stock = 1_000_000
                let item = try #require(try await setUp(try endpoints.address(.addMenuItem), [
                    "restaurantId": .string(restaurant), "name": "Flood dish", "priceCents": 1500, "currency": "USD", "stock": .int(stock),
                ])["item"]?["id"]?.stringValue)
                let user = try #require(try await setUp(try endpoints.address(.registerUser), [
                    "name": "Flooder", "email": .string(uniqueEmail("flood")),
                ])["user"]?["id"]?.stringValue)

                // Every request of both floods is sent at once, pipelined from 16 DEALERs each:
                // thousands queue at each endpoint, far more than it answers within the target.
                let order: JSONValue = ["userId": .string(user), "items": [["itemId": .string(item), "quantity": 1]], "deliveryAddress": "1 Flood Way"]
                let search: JSONValue = ["query": "flood"]
                async let orderReplies = race(try endpoints.address(.placeOrder), Array(repeating: order, count: 6_000), clients: 16, timeoutMilliseconds: 60_000)
                async let searchReplies = race(try endpoints.address(.searchRestaurants), Array(repeating: search, count: 12_000), clients: 16, timeoutMilliseconds: 60_000)
                let (orders, searches) = try await (orderReplies, searchReplies)
                let (orderCounts, searchCounts) = (ReplyCounts(orders), ReplyCounts(searches))
                print("QueueTimeFloodTests: PlaceOrder \(orderCounts), SearchRestaurants \(searchCounts)")

                // Every request answered (race requires one reply each), ok or overloaded only.
                #expect(Set(orderCounts.codes.keys).isSubset(of: ["overloaded"]), "\(orderCounts)")
                #expect(Set(searchCounts.codes.keys).isSubset(of: ["overloaded"]), "\(searchCounts)")
                // The flood really was past what the target lets wait.
                #expect(orderCounts.codes["overloaded", default: 0] + searchCounts.codes["overloaded", default: 0] > 0, "nothing was refused: not a flood")
                #expect(orderCounts.ok > 0 && searchCounts.ok > 0, "the flood starved one use case entirely")
                // No request that ran had waited past the target, by svcd's own measure.
                let stats = try await statistics(of: child)
                for useCase in [UseCaseName.placeOrder, .searchRestaurants] {
                    let waited = try #require(stats["useCases"]?[useCase.rawValue]?["longestWaitMicros"]?.intValue, "no longestWaitMicros for \(useCase.rawValue)")
                    #expect(waited > 0)
                    #expect(waited <= Self.targetMilliseconds * 1000, "a \(useCase.rawValue) waited \(waited) µs before it ran")
                }
                // Each ok order took one from the stock; each refused one took nothing.
                let menu = try await setUp(try endpoints.address(.getMenu), ["restaurantId": .string(restaurant)])
                let left = try #require(menu["items"]?.arrayValue?.first { $0["id"]?.stringValue == item }?["stock"]?.intValue)
                #expect(stock - left == orderCounts.ok, "stock sold \(stock - left), orders acknowledged \(orderCounts.ok)")
            }
        }

        /// One set-up call that must succeed, sent again while svcd refuses it `overloaded` (a
        /// slow first request under ThreadSanitizer can wait past the 100 ms target).
        private func setUp(_ address: String, _ params: JSONValue) async throws -> JSONValue {
            for _ in 0..<50 {
                let reply = try await call(address, request(id: "setup", params: params))
                if reply.code == "overloaded" { continue }
                #expect(reply.ok == true, "\(reply)")
                return try #require(reply.result, "no result in \(reply)")
            }
            throw ChildFailure("set-up call to \(address) refused overloaded 50 times")
        }

        /// svcd's admin `stats`, through `svcctl stats --json`.
        private func statistics(of child: SvcdChild) async throws -> JSONValue {
            let outcome = try await runTool(try ExecutableLocator.svcctl(), ["stats", "--data-dir", child.dataDirectory, "--json"], timeout: 20)
            try #require(outcome.status == 0, "svcctl stats failed: \(outcome.stderr)")
            return try #require(try? JSONParser.parse(Array(outcome.stdout.utf8)), "svcctl stats printed no JSON: \(outcome.stdout)")
        }
    }
}

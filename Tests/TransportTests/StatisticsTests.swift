import Foundation
import Testing
import Transport
import WireJSON
import WireTestSupport

/// `UseCaseEndpoint.statistics()` against real endpoints over sockets.
///
/// The suite has its own seeded service, so no other suite's requests reach its endpoints; each
/// test uses endpoints no other test of the suite uses, so its counts start at zero.
@Suite(.seededService)
struct StatisticsTests {
    /// Waits (up to 5 s) until `endpoint` has nothing in flight.
    private func waitUntilIdle(_ endpoint: UseCaseEndpoint) async -> Bool {
        await waitUntil(timeout: 5) { endpoint.statistics().inFlight == 0 }
    }

    private func expectOrderedPercentiles(_ latency: LatencySummary, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(latency.p50 > 0, "\(latency)", sourceLocation: sourceLocation)
        #expect(latency.p50 <= latency.p90, "\(latency)", sourceLocation: sourceLocation)
        #expect(latency.p90 <= latency.p99, "\(latency)", sourceLocation: sourceLocation)
        #expect(latency.p99 <= latency.max, "\(latency)", sourceLocation: sourceLocation)
    }

    @Test func anUnusedEndpointHasZeroStatistics() throws {
        let endpoint = try SeededService.harness().endpoint(.getUserProfile)
        #expect(endpoint.statistics() == UseCaseStatistics(requests: 0, errors: [:], inFlight: 0, latencyMicros: .zero))
    }

    @Test func okRequestsAreCountedExactlyWithOrderedPercentiles() async throws {
        let harness = try SeededService.harness()
        let endpoint = try harness.endpoint(.getRestaurant)
        let address = try harness.address(.getRestaurant)
        #expect(endpoint.statistics().requests == 0)
        let count = 150
        let replies = try await withClient(.dealer, address) { client in
            for index in 0..<count {
                let number = String(index % 300 + 1)
                let id = "r-" + String(repeating: "0", count: 6 - number.count) + number
                try client.send(body: request(id: "ok-\(index)", params: ["restaurantId": .string(id)]))
            }
            return try client.receiveReplies(upTo: count)
        }
        #expect(replies.count == count)
        #expect(replies.allSatisfy { $0.ok == true })

        let after = endpoint.statistics()
        #expect(after.requests == count)
        #expect(after.errors.isEmpty, "\(after.errors)")
        expectOrderedPercentiles(after.latencyMicros)
        #expect(await waitUntilIdle(endpoint), "in flight: \(endpoint.statistics().inFlight)")
    }

    @Test func unknownRestaurantsAreCountedAsNotFound() async throws {
        let harness = try SeededService.harness()
        let endpoint = try harness.endpoint(.getMenu)
        let address = try harness.address(.getMenu)
        #expect(endpoint.statistics().requests == 0)
        let okReply = try await call(address, request(id: "found", params: ["restaurantId": "r-000001"]))
        #expect(okReply.ok == true)
        for index in 0..<3 {
            let reply = try await call(address, request(id: "nf-\(index)", params: ["restaurantId": "r-999999"]))
            #expect(reply.code == "not_found")
        }
        let after = endpoint.statistics()
        #expect(after.requests == 4)
        #expect(after.errors == ["not_found": 3])
        expectOrderedPercentiles(after.latencyMicros)
        #expect(await waitUntilIdle(endpoint))
    }

    @Test func malformedMessagesAreCountedAsMalformed() async throws {
        let harness = try SeededService.harness()
        let endpoint = try harness.endpoint(.getReviews)
        let address = try harness.address(.getReviews)
        #expect(endpoint.statistics().requests == 0)
        // Not JSON, no delimiter, two bodies, an array body: each answered by the socket thread.
        let malformed: [[[UInt8]]] = [
            [[], bytes(#"{"v":1"#)],
            [bytes("no delimiter")],
            [[], bytes(#"{"v":1}"#), bytes(#"{"v":1}"#)],
            [[], bytes("[1,2]")],
            [[], bytes("not json at all")],
        ]
        let replies = try await withClient(.dealer, address) { client in
            for frames in malformed { try client.send(frames: frames) }
            var replies: [[[UInt8]]] = []
            while replies.count < malformed.count, let reply = try client.receiveFrames() { replies.append(reply) }
            return replies
        }
        #expect(replies.count == malformed.count)
        let after = endpoint.statistics()
        #expect(after.requests == malformed.count)
        #expect(after.errors == ["malformed": malformed.count])
        expectOrderedPercentiles(after.latencyMicros)
        #expect(after.inFlight == 0, "malformed messages are never in flight")
    }

    @Test func requestsInFlightAreReportedWhileUnansweredAndOverloadIsCounted() async throws {
        let maxInFlight = 3
        try await withService(running: false, configure: { $0.endpoint.maxInFlight = maxInFlight }) { harness in
            let endpoint = try harness.endpoint(.getRestaurant)
            let address = try harness.address(.getRestaurant)
            let count = 5
            let result = try await withClient(.dealer, address) { client in
                for index in 0..<count {
                    try client.send(body: request(id: "if-\(index)", params: ["restaurantId": "r-000001"]))
                }
                // Not running: the socket thread reads every request but can answer only the
                // overloaded ones; wait (on the socket, up to 5 s) until it has read them all.
                try client.setReceiveTimeout(20)
                var replies: [Reply] = []
                let deadline = Date().addingTimeInterval(5)
                while Date() < deadline, replies.count + endpoint.statistics().inFlight < count {
                    if let reply = try client.receiveReply() { replies.append(reply) }
                }
                let whileStopped = endpoint.statistics()
                harness.startRunning()
                try client.setReceiveTimeout(5000)
                replies += try client.receiveReplies(upTo: count - replies.count)
                return (whileStopped, replies)
            }
            let (whileStopped, replies) = result
            #expect(whileStopped.inFlight == maxInFlight)
            #expect(whileStopped.requests == count - maxInFlight)
            #expect(whileStopped.errors == ["overloaded": count - maxInFlight])
            #expect(replies.count == count)

            // The service is empty: the accepted requests end as not_found.
            let after = endpoint.statistics()
            #expect(after.requests == count)
            #expect(after.errors == ["overloaded": count - maxInFlight, "not_found": maxInFlight])
            expectOrderedPercentiles(after.latencyMicros)
            #expect(await waitUntilIdle(endpoint))
        }
    }
}

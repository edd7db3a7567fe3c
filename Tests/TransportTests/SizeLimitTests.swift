import Testing
import Transport
import WireJSON
import WireTestSupport

/// A CalculateRestaurantScore request for r-000001 padded with an ignored param to exactly
/// `length` bytes.
private func paddedRequest(length: Int) -> [UInt8] {
    let head = Array(#"{"v":1,"id":"big","params":{"restaurantId":"r-000001","pad":""#.utf8)
    let tail = Array(#""}}"#.utf8)
    precondition(length >= head.count + tail.count)
    return head + [UInt8](repeating: UInt8(ascii: "x"), count: length - head.count - tail.count) + tail
}

extension SeededWireTests {
    @Suite struct SizeLimit {
        static let limit = 1 << 20

        @Test func oversizedSingleFrameIsDroppedOrRefusedAndOthersAreStillServed() async throws {
            let harness = try SeededService.harness()
            let address = try harness.address(.calculateRestaurantScore)
            let body = paddedRequest(length: 3 * Self.limit / 2)
            // libzmq drops a peer that sends a frame over ZMQ_MAXMSGSIZE, so no reply is the
            // expected outcome; a `malformed` reply would also satisfy the contract.
            let reply = try await withClient(.req, address, receiveTimeout: 1500) { client in try client.call(body) }
            if let reply {
                #expect(reply.code == "malformed", "\(reply)")
            }
            let other = try await call(address, request(id: "after-big", params: ["restaurantId": "r-000001"]))
            #expect(other.ok == true, "\(other)")
            #expect(other.result?["score"]?.doubleValue != nil)
        }

        @Test func multipartMessageOverTheLimitIsMalformed() async throws {
            let harness = try SeededService.harness()
            let address = try harness.address(.calculateRestaurantScore)
            let half = [UInt8](repeating: UInt8(ascii: "y"), count: 600 * 1024)
            let reply = try await withClient(.dealer, address) { client in
                try client.send(frames: [[], half, half])
                return try client.receiveReply()
            }
            let refused = try #require(reply, "no reply to a multipart message of 1.2 MiB")
            #expect(refused.code == "malformed", "\(refused)")
            #expect(refused.message?.contains("size limit") == true, "\(refused)")
            #expect(refused.id == .null)
        }

        @Test func largestBodyFitsAndOneByteMoreIsMalformed() async throws {
            // The limit counts the 5-byte routing id the ROUTER adds and the empty delimiter, so
            // a directly connected DEALER may send a body of limit - 5 bytes.
            let harness = try SeededService.harness()
            let address = try harness.address(.calculateRestaurantScore)
            let fits = paddedRequest(length: Self.limit - 5)
            let tooBig = paddedRequest(length: Self.limit - 4)
            let replies = try await withClient(.dealer, address) { client in
                let first = try client.call(fits)
                let second = try client.call(tooBig)
                return (first, second)
            }
            let accepted = try #require(replies.0, "no reply to a body of \(fits.count) bytes")
            #expect(accepted.ok == true, "\(accepted)")
            #expect(accepted.id == "big")
            let refused = try #require(replies.1, "no reply to a body of \(tooBig.count) bytes")
            #expect(refused.code == "malformed", "\(refused)")
            #expect(refused.id == .null)
        }
    }
}

import Testing
@testable import Transport
import WireContract
import WireJSON
import WireTestSupport
import ZeroMQ

/// A reply goes back to the peer that asked, whatever the length of its routing id: the ids of
/// up to 16 bytes that ``RoutingID`` keeps inline, and the longer ones it keeps in an array.
@Suite struct RoutingIDTests {
    @Test(arguments: [0, 1, 5, 15, 16, 17, 64, 255])
    func anIdOfAnyLengthKeepsItsBytes(_ length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let id = RoutingID(bytes)
        #expect(id.bytes == bytes)
        #expect(id == RoutingID(bytes))
        if length > 0 {
            var other = bytes
            other[length - 1] ^= 0xFF
            #expect(id != RoutingID(other))
            #expect(id != RoutingID(Array(bytes.dropLast())))
        }
    }
}

extension SeededWireTests {
    @Suite struct RoutingIds {
        @Test(arguments: [5, 16, 17, 200])
        func peersThatSetTheirOwnRoutingIdGetTheirReplies(_ length: Int) async throws {
            let address = try SeededService.harness().address(.getRestaurant)
            let body = request(id: "rid-\(length)", params: ["restaurantId": "r-000001"])
            // Not starting with a zero byte: libzmq reserves those for the ids it makes.
            let routingId = (0..<length).map { UInt8(65 + $0 % 26) }
            let answered = try await onThread { try dealerCall(address, body) { try $0.setRoutingId(routingId) } }
            let reply = try #require(answered, "no reply within 5 s")
            #expect(reply.ok == true, "\(reply)")
            #expect(reply.id == .string("rid-\(length)"), "\(reply)")
        }
    }
}

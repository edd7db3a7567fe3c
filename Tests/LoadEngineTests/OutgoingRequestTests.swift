import Testing
import WireContract
import WireJSON
@testable import LoadEngine

/// A load thread's requests, written in place, are byte for byte what ``WireEnvelope`` makes.
@Suite("Writing requests in place")
struct OutgoingRequestTests {
    @Test(arguments: [0, 9, 10, 99_999, 1 << 40 | 7, UInt64.max] as [UInt64])
    func theBytesAreTheEnvelopesAndTheirCountIsKnownBeforehand(_ number: UInt64) throws {
        let params = Array(#"{"userId":"u-1","items":[{"itemId":"m-1","quantity":2}]}"#.utf8)
        for keyPrefix in [nil, "stress-1a2b-c3-"] {
            let request = OutgoingRequest(useCase: .placeOrder, useCaseIndex: UseCaseName.allCases.firstIndex(of: .placeOrder)!, id: number, params: params, keyPrefix: keyPrefix, keyNumber: number / 3)
            let expected = WireEnvelope.requestBytes(id: String(number), params: params, idempotencyKey: keyPrefix.map { $0 + String(number / 3) })
            #expect(request.bytes == expected)
            #expect(request.byteCount == expected.count)
            let parsed = try JSONParser.parse(request.bytes)
            #expect(parsed[WireEnvelope.Key.id.name]?.stringValue == String(number))
            #expect(parsed[WireEnvelope.Key.params.name] == (try JSONParser.parse(params)))
            // Appended after what is already there.
            var queue: [UInt8] = [1, 2, 3]
            request.append(to: &queue)
            #expect(queue == [1, 2, 3] + expected)
        }
    }
}

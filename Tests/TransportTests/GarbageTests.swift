import SeededRandom
import Testing
import Transport
import WireJSON
import WireTestSupport

/// A garbage message and the envelope its reply must carry: the frames up to and including the
/// first empty frame, or `[""]` when the message has no empty frame.
private struct GarbageMessage {
    let frames: [[UInt8]]
    var expectedEnvelope: [[UInt8]] {
        guard let delimiter = frames.firstIndex(where: \.isEmpty) else { return [[]] }
        return Array(frames[...delimiter])
    }
}

private func makeGarbage(count: Int, seed: UInt64) -> [GarbageMessage] {
    var random = SplitMix64(seed: seed)
    func frame(nonEmpty: Bool) -> [UInt8] {
        let length = Int.random(in: (nonEmpty ? 1 : 0)...2000, using: &random)
        return (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
    }
    // Hand-made nasties for the JSON layer, sent as well-framed bodies.
    let nasties: [[UInt8]] = [
        Array(String(repeating: "[", count: 5000).utf8),
        Array((String(repeating: "{\"a\":", count: 3000) + "1" + String(repeating: "}", count: 3000)).utf8),
        Array(#"{"v":1e999999,"id":"x"}"#.utf8),
        Array(#"{"v":1,"deadlineMs":1e300}"#.utf8),
        Array(("{\"v\":1,\"id\":\"" + String(repeating: "9", count: 5000) + "\"}").utf8),
        Array(("{\"v\":" + String(repeating: "1", count: 2000) + "}").utf8),
        Array(#"{"v":1,"params":{"restaurantId":"\u0000"}}"#.utf8).prefix(20).map { $0 },
        [0xEF, 0xBB, 0xBF] + Array(#"{"v":1}"#.utf8),
        Array(#"{"v":1,"id":"\ud83d"}"#.utf8),
        [0x00, 0x00, 0x00],
    ]
    var messages: [GarbageMessage] = []
    for index in 0..<count {
        if index % 50 == 0 {
            messages.append(GarbageMessage(frames: [[], nasties[(index / 50) % nasties.count]]))
            continue
        }
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            // One random frame, no delimiter (may itself be empty: then it is a lone delimiter).
            messages.append(GarbageMessage(frames: [frame(nonEmpty: false)]))
        case 1:
            // Well framed: delimiter and one random body.
            messages.append(GarbageMessage(frames: [[], frame(nonEmpty: false)]))
        case 2:
            // Several non-empty frames, no delimiter.
            messages.append(GarbageMessage(frames: (0..<Int.random(in: 2...4, using: &random)).map { _ in frame(nonEmpty: true) }))
        case 3:
            // Delimiter followed by several bodies.
            messages.append(GarbageMessage(frames: [[]] + (0..<Int.random(in: 2...3, using: &random)).map { _ in frame(nonEmpty: false) }))
        default:
            // Non-empty "proxy" frames, a delimiter, then one random body.
            let prefix = (0..<Int.random(in: 1...2, using: &random)).map { _ in frame(nonEmpty: true).prefix(64).map { $0 } }
            messages.append(GarbageMessage(frames: prefix + [[], frame(nonEmpty: false)]))
        }
    }
    return messages
}

extension SeededWireTests {
    @Suite struct Garbage {
        @Test func fiveHundredGarbageMessagesEachGetAContractErrorAndTheEndpointKeepsServing() async throws {
            try await expectGarbageAnswered(by: try SeededService.harness(), curve: nil)
        }
    }
}

/// The same garbage through a CURVE client of a service whose use-case endpoints are CURVE
/// servers (`--client-keys`): after a good handshake, the transport answers exactly as in
/// plaintext.
@Suite struct CurveGarbageTests {
    @Test func fiveHundredGarbageMessagesOverCurveEachGetAContractErrorAndTheEndpointKeepsServing() async throws {
        try await withCurveService { harness, curve in
            try await expectGarbageAnswered(by: harness, curve: curve)
        }
    }
}

/// Sends 500 garbage messages to GetMenu (over CURVE with `curve`) and expects each to be
/// answered with a contract error carrying its envelope, and the endpoint to serve afterwards.
private func expectGarbageAnswered(by harness: ServiceHarness, curve: CurveClient?) async throws {
    let address = try harness.address(.getMenu)
    let endpoint = try harness.endpoint(.getMenu)
    let rejectionsBefore = endpoint.counters.transportRejections
    let messages = makeGarbage(count: 500, seed: 0x5EED_6A7B)
    let frames = messages.map(\.frames)

    let replies = try await withClient(.dealer, address, curve: curve) { client in
        for message in frames { try client.send(frames: message) }
        var replies: [[[UInt8]]] = []
        while replies.count < frames.count, let reply = try client.receiveFrames() {
            replies.append(reply)
        }
        return replies
    }

    // Every message has an empty frame before its last frame or none at all, so each one
    // is answered by the transport itself, immediately and in order.
    #expect(replies.count == messages.count, "every garbage message gets exactly one reply")
    for (index, (message, replyFrames)) in zip(messages, replies).enumerated() {
        let reply = Reply(frames: replyFrames)
        #expect(Array(replyFrames.dropLast()) == message.expectedEnvelope, "message \(index): the reply does not carry the request's envelope")
        #expect(reply.ok == false, "message \(index): \(reply)")
        let code = try #require(reply.code, "message \(index): the reply is not an error envelope: \(reply)")
        #expect(contractErrorCodes.contains(code), "message \(index): unknown code \(code)")
        #expect(code == "malformed" || code == "unsupported_version", "message \(index): \(reply)")
    }
    #expect(endpoint.counters.transportRejections - rejectionsBefore == messages.count)

    let after = try await call(address, request(id: "after-garbage", params: ["restaurantId": "r-000001"]), curve: curve)
    #expect(after.ok == true, "\(after)")
    #expect(after.id == "after-garbage")
    let items = try #require(after.result?["items"]?.arrayValue)
    #expect(!items.isEmpty)
    #expect(items.allSatisfy { $0["restaurantId"] == "r-000001" })
}

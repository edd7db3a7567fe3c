import Testing
@testable import LoadEngine

@Suite("Reading ZMTP frames")
struct ZMTPFrameReaderTests {
    /// A greeting, a two-frame message with a long (8-byte size) body, a PING, a one-frame message.
    static let stream: [UInt8] = {
        var bytes = ZMTPConnection.greeting
        ZMTPConnection.appendFrame([], more: true, to: &bytes)
        ZMTPConnection.appendFrame([UInt8](repeating: 7, count: 300), to: &bytes)
        ZMTPConnection.appendFrame(ZMTPConnection.commandBody("PING") + [0, 10, 1, 2], command: true, to: &bytes)
        ZMTPConnection.appendFrame(Array("last".utf8), to: &bytes)
        return bytes
    }()

    static let expected: [ZMTPInput] = [
        .message([[], [UInt8](repeating: 7, count: 300)]),
        .command(ZMTPConnection.commandBody("PING") + [0, 10, 1, 2]),
        .message([Array("last".utf8)]),
    ]

    /// Feeds `chunks` one by one, taking what is whole after each.
    static func read(_ chunks: [ArraySlice<UInt8>], limit: Int = 1 << 20) throws(ZMTPFailure) -> (greeting: [UInt8]?, inputs: [ZMTPInput]) {
        var reader = ZMTPFrameReader(maxMessageBytes: limit)
        var greeting: [UInt8]?
        var inputs: [ZMTPInput] = []
        for chunk in chunks {
            reader.append(Array(chunk))
            if greeting == nil { greeting = reader.takeGreeting() }
            guard greeting != nil else { continue }
            while let input = try reader.next() { inputs.append(input) }
        }
        return (greeting, inputs)
    }

    @Test func theSameInputsComeOutWhereverTheBytesAreCut() throws {
        let whole = try Self.read([Self.stream[...]])
        #expect(whole.greeting == ZMTPConnection.greeting)
        #expect(whole.inputs == Self.expected)
        for cut in 1..<Self.stream.count {
            let split = try Self.read([Self.stream[..<cut], Self.stream[cut...]])
            #expect(split.greeting == ZMTPConnection.greeting, "cut at \(cut)")
            #expect(split.inputs == Self.expected, "cut at \(cut)")
        }
        let byteByByte = try Self.read(Self.stream.indices.map { Self.stream[$0...$0] })
        #expect(byteByByte.inputs == Self.expected)
    }

    @Test func framesOfAnUnfinishedMessageSurviveTheBufferBeingCompacted() throws {
        // 120,000 bytes taken, then the first two frames of a message; the rest of it comes with
        // a message too large for the room left, so the buffer is compacted while those frames
        // wait in it for the last.
        var bytes: [UInt8] = []
        ZMTPConnection.appendFrame([UInt8](repeating: 1, count: 120_000), to: &bytes)
        ZMTPConnection.appendFrame([], more: true, to: &bytes)
        ZMTPConnection.appendFrame(Array("first".utf8), more: true, to: &bytes)
        var reader = ZMTPFrameReader(maxMessageBytes: 1 << 20)
        reader.append(bytes)
        #expect(try reader.next() == .message([[UInt8](repeating: 1, count: 120_000)]))
        #expect(try reader.next() == nil)
        var rest: [UInt8] = []
        ZMTPConnection.appendFrame(Array("last".utf8), to: &rest)
        ZMTPConnection.appendFrame([UInt8](repeating: 2, count: 40_000), to: &rest)
        reader.append(rest)
        #expect(try reader.next() == .message([[], Array("first".utf8), Array("last".utf8)]))
        #expect(try reader.next() == .message([[UInt8](repeating: 2, count: 40_000)]))
        #expect(reader.unreadCount == 0)
        // And lent without a copy, the same frames.
        var message: [UInt8] = []
        ZMTPConnection.appendFrame([], more: true, to: &message)
        ZMTPConnection.appendFrame(Array("body".utf8), to: &message)
        reader.append(message)
        var lent: [[UInt8]] = []
        guard case .message = try reader.take(message: { lent = $0.copied }) else {
            Issue.record("no message taken")
            return
        }
        #expect(lent == [[], Array("body".utf8)])
    }

    @Test func aMessageLargerThanTheBufferMakesItGrow() throws {
        var bytes: [UInt8] = []
        ZMTPConnection.appendFrame([UInt8](repeating: 3, count: 500_000), to: &bytes)
        var reader = ZMTPFrameReader(maxMessageBytes: 1 << 20)
        for chunk in stride(from: 0, to: bytes.count, by: 65_536) { reader.append(Array(bytes[chunk..<min(chunk + 65_536, bytes.count)])) }
        #expect(try reader.next() == .message([[UInt8](repeating: 3, count: 500_000)]))
    }

    @Test func aMessageOverTheLimitIsAFailureEvenAcrossFrames() throws {
        var frames: [UInt8] = []
        ZMTPConnection.appendFrame([UInt8](repeating: 1, count: 60), more: true, to: &frames)
        ZMTPConnection.appendFrame([UInt8](repeating: 2, count: 60), to: &frames)
        var reader = ZMTPFrameReader(maxMessageBytes: 100)
        reader.append(frames)
        #expect(throws: ZMTPFailure.self) { try reader.next() }
        var within = ZMTPFrameReader(maxMessageBytes: 120)
        within.append(frames)
        #expect(try within.next() == .message([[UInt8](repeating: 1, count: 60), [UInt8](repeating: 2, count: 60)]))
    }

    @Test(arguments: [
        [0x08, 0x00] as [UInt8],  // a flag no version defines
        [0x05, 0x01, 0x00],  // a command marked "more"
    ])
    func framesNoPeerMaySendAreFailures(_ bytes: [UInt8]) {
        var reader = ZMTPFrameReader(maxMessageBytes: 1 << 20)
        reader.append(bytes)
        #expect(throws: ZMTPFailure.self) { try reader.next() }
    }

    @Test func aCommandBetweenTheFramesOfAMessageIsAFailure() {
        var bytes: [UInt8] = []
        ZMTPConnection.appendFrame([], more: true, to: &bytes)
        ZMTPConnection.appendFrame(ZMTPConnection.commandBody("PING") + [0, 0], command: true, to: &bytes)
        var reader = ZMTPFrameReader(maxMessageBytes: 1 << 20)
        reader.append(bytes)
        #expect(throws: ZMTPFailure.self) { try reader.next() }
    }

    @Test func anIncompleteFrameWaitsForTheRest() throws {
        var reader = ZMTPFrameReader(maxMessageBytes: 1 << 20)
        reader.append([0x02, 0, 0, 0, 0, 0, 0, 1])  // a long frame's size, one byte short
        #expect(try reader.next() == nil)
        reader.append([0x00] + [UInt8](repeating: 9, count: 255))
        #expect(try reader.next() == nil)
        reader.append([9])
        #expect(try reader.next() == .message([[UInt8](repeating: 9, count: 256)]))
        #expect(reader.unreadCount == 0)
    }
}

import Foundation
import Synchronization
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport
import ZeroMQ

extension StressSuite {
    /// A live-stream subscriber that stops reading: writers are answered as if it were not there,
    /// svcd publishes every event regardless (each subscriber's queue is bounded, and what does
    /// not fit is dropped for that subscriber alone), and the subscriber, reading again, fills
    /// whatever it missed from the event log, ending with every event exactly once.
    @Suite struct SlowSubscriberTests {
        static let writes = 15_000

        @Test func aSubscriberThatStopsReadingSlowsNoWriterAndRecoversItsMissesFromTheLog() async throws {
            // A small queue per subscriber, so that one that stops reading overflows it soon.
            try await withSvcd(seed: false, arguments: ["--event-subscriber-buffer", "500"]) { child in
                let endpoints = try await child.endpoints()
                let stream = try #require(endpoints.events), log = try #require(endpoints.eventLog)
                let subscriber = StalledSubscriber()
                let received = Task { try await onThread { try subscriber.run(stream) } }
                try await subscriber.waitUntilConnected()

                let acknowledged = try await onThread { try Self.register(Self.writes, at: try endpoints.address(.registerUser)) }
                #expect(acknowledged == Self.writes, "every write is answered while the subscriber reads nothing")
                // svcd published all of them, not held up by the subscriber that does not read.
                var published = 0
                let deadline = ContinuousClock.now.advanced(by: .seconds(20))
                while published < Self.writes, ContinuousClock.now < deadline {
                    let stats = try await runTool(try ExecutableLocator.svcctl(), ["stats", "--json", "--data-dir", child.dataDirectory], timeout: 30)
                    published = try JSONParser.parse(stats.stdout)["events"]?["lastPublishedSeq"]?.intValue ?? 0
                }
                #expect(published == Self.writes, "published while one subscriber stalled: \(published)")

                subscriber.resume()
                let live = try await received.value
                #expect(live == live.sorted() && Set(live).count == live.count, "live messages arrive in seq order, once each")
                #expect(live.count < Self.writes, "its queue is bounded: it missed messages")
                // Fill the gaps from the log, as a subscriber does.
                var all = Set(live)
                var position: Int64 = 0
                while position < Int64(Self.writes) {
                    let reply = try await call(log, request(id: "fill", params: ["after": .int(Int(position)), "limit": 1000]))
                    let page = try #require(reply.result?["events"]?.arrayValue, "\(reply)")
                    guard let last = page.last?["seq"]?.intValue else { break }
                    for event in page { if let seq = event["seq"]?.intValue { all.insert(Int64(seq)) } }
                    position = Int64(last)
                }
                #expect(all == Set(1...Int64(Self.writes)), "missing after the fill: \(Set(1...Int64(Self.writes)).subtracting(all).count)")
                print("slow subscriber: \(live.count) of \(Self.writes) events arrived live, \(Self.writes - live.count) filled from the log")
            }
        }

        /// Registers `count` users through one pipelined DEALER (256 in flight); how many were ok.
        private static func register(_ count: Int, at address: String) throws -> Int {
            let client = try WireClient(.dealer, connectTo: address, receiveTimeout: 20_000)
            defer { client.close() }
            var sent = 0, ok = 0, answered = 0
            let tag = UUID().uuidString.prefix(8).lowercased()
            func send() throws {
                try client.send(body: request(id: String(sent), params: ["name": "Slow", "email": .string("slow-\(tag)-\(sent)@example.com")]))
                sent += 1
            }
            while sent < min(256, count) { try send() }
            while answered < count, let reply = try client.receiveReply() {
                answered += 1
                if reply.ok == true { ok += 1 }
                if sent < count { try send() }
            }
            return ok
        }
    }
}

/// A SUB socket on a thread of its own that connects, subscribes to everything and then reads
/// nothing until told to, and then reads what is queued: the seqs that arrived live.
private final class StalledSubscriber: Sendable {
    private let connected = Atomic<Bool>(false)
    private let reading = Atomic<Bool>(false)

    func waitUntilConnected() async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while !connected.load(ordering: .acquiring) {
            guard ContinuousClock.now < deadline else { throw ChildFailure("the subscriber did not connect") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func resume() {
        reading.store(true, ordering: .releasing)
    }

    /// Runs on the subscriber's thread until it has read everything queued.
    func run(_ address: String) throws -> [Int64] {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.sub)
        defer { socket.close() }
        try socket.setLinger(0)
        try socket.setReceiveHighWaterMark(500)
        // A small kernel buffer too: otherwise the kernels' buffers alone hold thousands of events.
        try socket.setReceiveBufferSize(4096)
        try socket.subscribe()
        try socket.connect(address)
        // A subscription reaches the publisher a moment after connecting; events published
        // before it are misses like any other, filled from the log.
        connected.store(true, ordering: .releasing)
        while !reading.load(ordering: .acquiring) { usleep(5000) }
        var seqs: [Int64] = []
        try socket.setReceiveTimeout(1000)
        var frames: [[UInt8]] = []
        while try socket.receiveMultipart(into: &frames) != nil {
            if frames.count == 2, let seq = (try? JSONParser.parse(frames[1]))?["seq"]?.intValue { seqs.append(Int64(seq)) }
        }
        return seqs
    }
}

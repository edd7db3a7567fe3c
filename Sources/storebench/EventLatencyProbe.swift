import BenchmarkSupport
import Foundation
import Synchronization
import WireContract
import WireJSON
import ZeroMQ

/// Commit → live-stream latency under a steady load: RegisterUser sent open-loop at a fixed rate
/// (spread evenly over the instances, one DEALER each, each request at its scheduled time
/// whatever the replies do), while one subscriber per instance records when each user's
/// `UserRegistered` event arrives on that instance's live stream.
///
/// A write's commit happens between its send and its `ok` reply, so `event arrival − send` is an
/// upper bound of commit → publication as a subscriber sees it (it adds the request's way in),
/// and `reply − send` is the write's own latency beside it. Every subscriber's view counts: on a
/// cluster an event written on one instance must reach the subscribers of all of them.
struct EventLatencyProbe: Sendable {
    /// RegisterUser's address per instance.
    let writeAddresses: [String]
    /// The live stream's address per instance.
    let streamAddresses: [String]
    /// Requests per second over all instances.
    let rate: Double
    let seconds: Double
    /// Makes the e-mail addresses unique to this run.
    let tag: String

    struct Outcome {
        /// Writes answered `ok`.
        var acknowledged = 0
        /// Replies that were not `ok`, and requests without a reply.
        var failed = 0
        /// Send → `ok` reply, µs.
        var replyMicros: [Double] = []
        /// Send → the event's arrival, µs, per subscriber and acknowledged write.
        var liveMicros: [Double] = []
        /// (subscriber, acknowledged write) pairs whose event never arrived live.
        var missed = 0
    }

    func run() async throws -> Outcome {
        let flags = Flags(subscribers: streamAddresses.count)
        let expected = Int(rate * seconds)
        let subscribers = streamAddresses.enumerated().map { index, address in
            Task { try await onThread { try Self.listen(address, index: index, expecting: expected, flags: flags) } }
        }
        // Each subscription reaches its publisher a moment after connecting.
        let ready = ContinuousClock.now.advanced(by: .seconds(10))
        while flags.listening.load(ordering: .acquiring) < streamAddresses.count, ContinuousClock.now < ready { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(300))

        let share = rate / Double(writeAddresses.count)
        let writes = try await withThrowingTaskGroup(of: [Write].self) { group in
            for (index, address) in writeAddresses.enumerated() {
                group.addTask { [tag, seconds] in
                    try await onThread { try Self.write(address, perSecond: share, seconds: seconds, tag: "\(tag)-\(index)") }
                }
            }
            var all: [Write] = []
            for try await written in group { all += written }
            return all
        }
        let acknowledged = writes.filter { $0.userId != nil }
        let keys = Set(acknowledged.compactMap(\.userId))
        // Until every subscriber heard as many events as writes were acknowledged, or 5 s.
        let drained = ContinuousClock.now.advanced(by: .seconds(5))
        while ContinuousClock.now < drained, flags.heard.contains(where: { $0.value.load(ordering: .acquiring) < keys.count }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        flags.stop.store(true, ordering: .releasing)
        var heard: [[String: UInt64]] = []
        for subscriber in subscribers { heard.append(Self.arrivalsByKey(try await subscriber.value)) }

        var outcome = Outcome()
        outcome.acknowledged = acknowledged.count
        outcome.failed = writes.count - acknowledged.count
        for write in acknowledged {
            guard let userId = write.userId, let replied = write.repliedAt else { continue }
            outcome.replyMicros.append(Double(replied - write.sentAt) / 1000)
            for arrivals in heard {
                if let arrived = arrivals[userId] {
                    outcome.liveMicros.append(Double(Int64(arrived) - Int64(write.sentAt)) / 1000)
                } else {
                    outcome.missed += 1
                }
            }
        }
        return outcome
    }

    /// The subscribers' shared state: how many listen, how many events each heard, and when to
    /// stop.
    private final class Flags: Sendable {
        let listening = Atomic<Int>(0)
        let heard: [Count]
        let stop = Atomic<Bool>(false)

        init(subscribers: Int) {
            heard = (0..<subscribers).map { _ in Count() }
        }
    }

    /// Events one subscriber heard so far.
    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    /// One event as a subscriber received it: when, and its JSON (parsed after the run).
    private struct Arrival: Sendable {
        let at: UInt64
        let body: [UInt8]
    }

    /// One request: when it was sent, when its reply came and the user it registered.
    private struct Write: Sendable {
        let sentAt: UInt64
        var repliedAt: UInt64?
        var userId: String?
    }

    /// Subscribes to `UserRegistered` at `address` and records each event's arrival until `stop`.
    ///
    /// The thread only timestamps and keeps what arrives (room for `expecting` events reserved
    /// up front): parsing each event, or a dictionary that rehashes as it grows, would delay the
    /// next receive and be measured as the stream's latency.
    private static func listen(_ address: String, index: Int, expecting: Int, flags: Flags) throws -> [Arrival] {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.sub)
        defer { socket.close() }
        try socket.setLinger(0)
        try socket.setReceiveHighWaterMark(0)
        try socket.setReceiveTimeout(100)
        try socket.subscribe(Array(EventType.userRegistered.rawValue.utf8))
        try socket.connect(address)
        flags.listening.add(1, ordering: .releasing)
        var arrivals: [Arrival] = []
        arrivals.reserveCapacity(expecting + expecting / 8)
        var frames: [[UInt8]] = []
        while !flags.stop.load(ordering: .acquiring) {
            guard try socket.receiveMultipart(into: &frames) != nil, frames.count == 2 else { continue }
            arrivals.append(Arrival(at: MonotonicClock.nanoseconds(), body: frames[1]))
            flags.heard[index].value.add(1, ordering: .releasing)
        }
        return arrivals
    }

    /// Each event's first arrival by its key (the user's id).
    private static func arrivalsByKey(_ arrivals: [Arrival]) -> [String: UInt64] {
        var byKey: [String: UInt64] = [:]
        byKey.reserveCapacity(arrivals.count)
        for arrival in arrivals {
            guard let key = (try? JSONParser.parse(arrival.body))?[WireEvent.Key.key]?.stringValue, byKey[key] == nil else { continue }
            byKey[key] = arrival.at
        }
        return byKey
    }

    /// Sends RegisterUser to `address` at `perSecond` for `seconds`, each request at its
    /// scheduled time, reading replies in between; then waits up to 10 s for the last replies.
    private static func write(_ address: String, perSecond: Double, seconds: Double, tag: String) throws -> [Write] {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.dealer)
        defer { socket.close() }
        try socket.setLinger(0)
        try socket.setSendHighWaterMark(0)
        try socket.setReceiveHighWaterMark(0)
        try socket.connect(address)
        let poller = ZMQPoller()
        _ = poller.add(socket, events: .pollIn)
        let interval = 1e9 / perSecond
        let total = Int(perSecond * seconds)
        var writes: [Write] = []
        writes.reserveCapacity(total)
        var answered = 0
        var frames: [[UInt8]] = []
        let start = MonotonicClock.nanoseconds()
        func receive(until deadline: UInt64) throws {
            while true {
                let now = MonotonicClock.nanoseconds()
                guard now < deadline, answered < writes.count || writes.count < total else { return }
                // Rounded up: a timeout of 0 would spin a core the service needs.
                _ = try poller.poll(timeoutMilliseconds: Int((deadline - now + 999_999) / 1_000_000))
                while try socket.receiveMultipart(into: &frames, dontWait: true) != nil {
                    let arrived = MonotonicClock.nanoseconds()
                    guard let body = frames.last, let reply = try? JSONParser.parse(body),
                          let index = reply[WireEnvelope.Key.id]?.stringValue.flatMap(Int.init), writes.indices.contains(index) else { continue }
                    answered += 1
                    writes[index].repliedAt = arrived
                    if reply.replySucceeded { writes[index].userId = reply.replyResult?[WireMember.user.name]?[WireMember.id.name]?.stringValue }
                }
                if MonotonicClock.nanoseconds() >= deadline { return }
            }
        }
        while writes.count < total {
            let due = start + UInt64(Double(writes.count) * interval)
            try receive(until: due)
            let params = #"{"\#(WireMember.name.name)":"Latency","\#(WireMember.email.name)":"lat-\#(tag)-\#(writes.count)@example.com"}"#
            writes.append(Write(sentAt: MonotonicClock.nanoseconds()))
            try socket.sendMultipart([[], WireEnvelope.requestBytes(id: String(writes.count - 1), paramsJSON: params)])
        }
        try receive(until: MonotonicClock.nanoseconds() + 10_000_000_000)
        return writes
    }
}

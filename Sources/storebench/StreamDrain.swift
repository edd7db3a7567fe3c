import Foundation
import Synchronization
import ZeroMQ

/// One subscriber on each instance's live event stream, taking every message and counting it,
/// for as long as a throughput run lasts: svcd reads and publishes events only while someone
/// listens, so a run with the event log measures that work too.
final class StreamDrain: Sendable {
    /// What the subscribers' threads share with the benchmark.
    private final class Flags: Sendable {
        let subscribed = Atomic<Int>(0)
        let stopping = Atomic<Bool>(false)
    }

    private let flags = Flags()
    private let tasks: [Task<Int, any Error>]

    /// Connects a subscriber to each of `addresses` and returns once all are connected and their
    /// subscriptions had a moment to reach the publishers.
    static func start(_ addresses: [String]) async throws -> StreamDrain {
        let drain = StreamDrain(addresses)
        let ready = ContinuousClock.now.advanced(by: .seconds(10))
        while drain.flags.subscribed.load(ordering: .acquiring) < addresses.count, ContinuousClock.now < ready {
            try await Task.sleep(for: .milliseconds(10))
        }
        // A subscription reaches its publisher a moment after the connect.
        try await Task.sleep(for: .milliseconds(300))
        return drain
    }

    private init(_ addresses: [String]) {
        let flags = self.flags
        tasks = addresses.map { address in
            Task { try await onThread { try Self.drain(address, flags: flags) } }
        }
    }

    /// Disconnects every subscriber; returns the messages each received.
    func stop() async throws -> [Int] {
        flags.stopping.store(true, ordering: .releasing)
        var counts: [Int] = []
        for task in tasks { counts.append(try await task.value) }
        return counts
    }

    private static func drain(_ address: String, flags: Flags) throws -> Int {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.sub)
        defer { socket.close() }
        try socket.setLinger(0)
        try socket.setReceiveTimeout(100)
        try socket.subscribe()
        try socket.connect(address)
        flags.subscribed.add(1, ordering: .releasing)
        var frames: [[UInt8]] = []
        var received = 0
        while !flags.stopping.load(ordering: .acquiring) {
            if try socket.receiveMultipart(into: &frames) != nil { received += 1 }
        }
        return received
    }
}

import Foundation
import RestaurantClient
import Synchronization
import Testing

/// A subscriber for the tests: follows a client's event stream (RestaurantClient's Clone-pattern
/// sequence) in a task of its own and keeps every event it delivered, in order, so a test can
/// wait for a condition on them and then check them all.
public final class EventTrail: Sendable {
    private let received = Mutex<[RestaurantEvent]>([])
    private let ended = Mutex<RestaurantClientError?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    private init() {}

    /// Starts following `client`'s events after `after` (only `types` when given).
    public static func follow(_ client: RestaurantClient, after: Int64 = 0, types: Set<EventType>? = nil) -> EventTrail {
        let trail = EventTrail()
        let following = Task {
            do throws(RestaurantClientError) {
                for try await event in client.events(after: after, types: types) {
                    trail.received.withLock { $0.append(event) }
                }
            } catch {
                trail.ended.withLock { $0 = error }
            }
        }
        trail.task.withLock { $0 = following }
        return trail
    }

    /// Every event delivered so far, in delivery order.
    public var events: [RestaurantEvent] { received.withLock { $0 } }

    /// What ended the stream with an error, if anything did.
    public var failure: RestaurantClientError? { ended.withLock { $0 } }

    /// Polls every 20 ms until `condition` holds on the events delivered; fails after `timeout`
    /// seconds (or at once when the stream ended with an error), returning the events.
    @discardableResult
    public func waitUntil(
        timeout seconds: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: ([RestaurantEvent]) -> Bool
    ) async throws -> [RestaurantEvent] {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while true {
            let events = self.events
            if condition(events) { return events }
            if let failure { throw ChildFailure("the event stream ended with \(failure) before: \(what)") }
            guard ContinuousClock.now < deadline else {
                throw ChildFailure("after \(seconds) s and \(events.count) events (last seq \(events.last?.seq ?? 0)), still not: \(what)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until the event of `key` (a marker written last) arrived; returns every event before it.
    public func eventsBefore(key: String, timeout seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [RestaurantEvent] {
        let events = try await waitUntil(timeout: seconds, "the marker \(key) arrived", sourceLocation: sourceLocation) { $0.contains { $0.key == key } }
        return Array(events.prefix { $0.key != key })
    }

    /// Stops following.
    public func stop() async {
        let following = task.withLock { $0 }
        following?.cancel()
        await following?.value
    }
}

extension Array where Element == RestaurantEvent {
    /// Whether the events are exactly seq `first`, `first` + 1, … in order: no gap, no repeat.
    public func areConsecutive(from first: Int64 = 1) -> Bool {
        enumerated().allSatisfy { $0.element.seq == first + Int64($0.offset) }
    }
}

extension RestaurantClient {
    /// The whole event log, read page by page once it holds the event of `key` (a marker written
    /// last: every write committed before it is numbered by then); polls every 50 ms for at most
    /// `timeout` seconds. Returns the events before the marker's.
    public func eventLogBefore(key: String, timeout seconds: Double = 20) async throws -> [RestaurantEvent] {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        var events: [RestaurantEvent] = []
        while true {
            let page = try await eventLog(after: events.last?.seq ?? 0, limit: 1000)
            events += page.events
            if let index = events.firstIndex(where: { $0.key == key }) { return Array(events[..<index]) }
            if page.events.isEmpty {
                guard ContinuousClock.now < deadline else { throw ChildFailure("the event log has no event of \(key) after \(seconds) s (\(events.count) events)") }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}

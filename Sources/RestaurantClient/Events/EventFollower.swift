import Foundation
import WireContract
import WireJSON
import ZeroMQ

/// Follows the events of a cluster for one ``RestaurantEventStream``, on a thread of its own:
/// the ZeroMQ Guide's Clone pattern (chapter 5) with the client's failover.
///
/// On an instance: **subscribe first** to its live stream (only the wanted types), **then read
/// its log** from the last seq delivered until the log's end, then **apply live events in seq
/// order**: a live event already delivered is dropped (`seq` ≤ the last), the next one is
/// delivered, and any jump (a message the subscription missed, or events of other types) is
/// **filled from the log** before going on. With no live event for ``idleCheck`` the log is read
/// again: it finds what a silently broken subscription missed, and it is the liveness check.
///
/// When the instance fails (a log read times out, the instance cannot be reached, or answers
/// `unavailable`), the follower **moves to the next instance** and starts over there from the
/// last seq delivered: every instance serves the whole log, so nothing is missed and nothing
/// is delivered twice. Only `gone` (the log no longer keeps what comes next) and a malformed
/// event end it with an error.
struct EventFollower: Sendable {
    /// How long without a live event before the log is read again.
    static let idleCheck: Duration = .seconds(1)
    /// Events one log read returns at most.
    static let pageSize = 1000
    /// Live messages the subscription queues before dropping (and the log fills the gap).
    static let receiveHighWaterMark: Int32 = 10_000

    let types: Set<EventType>?
    let roster: FailoverRoster
    let options: RestaurantClientOptions
    let context: ZMQContext
    let handOff: EventHandOff

    private enum Stop: Error {
        /// The consumer has gone.
        case stopped
        /// This instance failed; try the next.
        case instanceFailed(RestaurantClientError)
        /// The stream cannot go on anywhere.
        case fatal(RestaurantClientError)
    }

    /// Delivers every event after `after` until the consumer stops or the stream cannot go on.
    /// Blocking: runs on the follower's own thread.
    func run(after: Int64) {
        var covered = after
        var index = 0
        var failedInARow = 0
        var requests = 0
        while !handOff.isStopped {
            do throws(Stop) {
                let endpoints: EventEndpoints
                switch EventEndpoints.resolve(index, roster: roster, options: options) {
                case .success(let resolved): endpoints = resolved
                case .failure(.invalidArgument(let reason)): throw Stop.fatal(.invalidArgument(reason))
                case .failure(let error): throw Stop.instanceFailed(error)
                }
                try follow(endpoints, covered: &covered, requests: &requests, onProgress: {
                    failedInARow = 0
                    roster.recordReply(index)
                })
            } catch {
                switch error {
                case .stopped:
                    return
                case .fatal(let reason):
                    handOff.finish(reason)
                    return
                case .instanceFailed:
                    roster.recordFailure(index, fileStamp: nil)
                    failedInARow += 1
                    index = (index + 1) % roster.count
                    if failedInARow % roster.count == 0 {
                        // Every instance failed in turn: pause before the next round.
                        let rounds = failedInARow / roster.count
                        pause(min(options.coolDown * (1 << min(rounds - 1, 10)), options.maxCoolDown))
                    }
                }
            }
        }
    }

    /// The Clone pattern on one instance, until it fails or the consumer stops.
    private func follow(_ endpoints: EventEndpoints, covered: inout Int64, requests: inout Int, onProgress: () -> Void) throws(Stop) {
        let subscriber: ZMQSocket
        do {
            subscriber = try context.makeSocket(.sub)
        } catch {
            throw .fatal(.unavailable("cannot create a socket: \(error)"))
        }
        defer { subscriber.close() }
        do {
            try subscriber.setLinger(0)
            try subscriber.setReceiveHighWaterMark(Self.receiveHighWaterMark)
            if let (serverKey, keys) = endpoints.curve {
                try subscriber.setCurveClient(serverKey: serverKey, publicKey: keys.publicKey, secretKey: keys.secretKey)
            }
            if let types {
                for type in types { try subscriber.subscribe(Array(type.rawValue.utf8)) }
            } else {
                try subscriber.subscribe()
            }
            try subscriber.connect(endpoints.stream)
        } catch {
            throw .instanceFailed(.unavailable("cannot subscribe to \(endpoints.stream): \(error)"))
        }
        // Subscribed first: whatever is published from now on is queued, and the log covers
        // everything before.
        try catchUp(endpoints, covered: &covered, requests: &requests)
        onProgress()
        let poller = ZMQPoller()
        _ = poller.add(subscriber, events: .pollIn)
        var lastLook = ContinuousClock.now
        var frames: [[UInt8]] = []
        while true {
            if handOff.isStopped { throw .stopped }
            do {
                _ = try poller.poll(timeoutMilliseconds: 100)
            } catch ZMQError.interrupted {
                continue
            } catch {
                throw .fatal(.unavailable("polling the live stream failed: \(error)"))
            }
            while (try? subscriber.receiveMultipart(into: &frames, dontWait: true)) != nil {
                guard frames.count == 2 else { continue }
                let event: RestaurantEvent
                do {
                    event = try RestaurantEvent(try JSONParser.parse(frames[1]))
                } catch let error as RestaurantClientError {
                    throw .fatal(error)
                } catch {
                    throw .fatal(.malformedReply("a live event is not JSON: \(error)"))
                }
                guard event.seq > covered else { continue }
                if types == nil, event.seq == covered + 1 {
                    try deliver(event, covered: &covered)
                } else {
                    // A gap: fill it from the log, which holds this event too.
                    try catchUp(endpoints, covered: &covered, requests: &requests)
                }
                lastLook = ContinuousClock.now
            }
            if ContinuousClock.now - lastLook >= Self.idleCheck {
                try catchUp(endpoints, covered: &covered, requests: &requests)
                onProgress()
                lastLook = ContinuousClock.now
            }
        }
    }

    /// Reads the log after `covered` to its end, delivering every event read.
    private func catchUp(_ endpoints: EventEndpoints, covered: inout Int64, requests: inout Int) throws(Stop) {
        while true {
            requests += 1
            let page: EventLogPage
            switch EventLogExchange.read(
                after: covered, limit: Self.pageSize, types: types, endpoints: endpoints, context: context, timeout: options.timeout,
                requestID: "ev-\(requests)"
            ) {
            case .success(let read): page = read
            case .failure(let error):
                if case .service(let code, _, _) = error, WireErrorCode(rawValue: code).map({ !$0.isSafeToResend }) ?? true {
                    throw .fatal(error)
                }
                throw .instanceFailed(error)
            }
            for event in page.events where event.seq > covered {
                try deliver(event, covered: &covered)
            }
            if page.events.count < Self.pageSize {
                // The page is the rest of the log as it was read: nothing of the wanted types
                // lies between the last event and the log's end.
                covered = max(covered, page.lastSeq)
                return
            }
        }
    }

    private func deliver(_ event: RestaurantEvent, covered: inout Int64) throws(Stop) {
        guard handOff.push(event) else { throw .stopped }
        covered = event.seq
    }

    /// Sleeps `duration` on this thread, waking early when the consumer stops.
    private func pause(_ duration: Duration) {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end, !handOff.isStopped {
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}

import Synchronization
import WireContract
import ZeroMQ

/// Every event of a cluster's log after a seq, each exactly once and in seq order, followed live
/// for as long as it is iterated (``RestaurantClient/events(after:types:)``): the Clone pattern
/// of the ZeroMQ Guide done for the caller, moving to another instance when one dies (see
/// ``EventFollower``).
///
/// Iterating starts a follower on a thread of its own; leaving the loop or cancelling the
/// iterating task stops it. Keep the seq of the last event you applied (durably, with what you
/// did with it) and pass it to `events(after:)` when you start again: the sequence resumes
/// exactly there. It ends with an error only when it cannot go on anywhere: `gone` (the log no
/// longer keeps the next event: rebuild your state, then follow from the oldest seq kept,
/// ``RestaurantClientError/firstSeq``), a malformed event, or an argument the client refused.
public struct RestaurantEventStream: AsyncSequence, Sendable {
    public typealias Element = RestaurantEvent
    public typealias Failure = RestaurantClientError

    let after: Int64
    let follower: EventFollower.Configuration

    /// Starts following.
    public func makeAsyncIterator() -> Iterator {
        Iterator(Subscription(after: after, follower: follower))
    }

    /// Delivers the events one by one.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = RestaurantEvent
        public typealias Failure = RestaurantClientError

        private let subscription: Subscription

        init(_ subscription: Subscription) {
            self.subscription = subscription
        }

        /// The next event; `nil` once the iterating task is cancelled.
        public mutating func next() async throws(RestaurantClientError) -> RestaurantEvent? {
            try await subscription.handOff.next()
        }
    }

    /// One follower and its hand-off, stopped when the iterator is dropped.
    final class Subscription: Sendable {
        let handOff: EventHandOff

        init(after: Int64, follower configuration: EventFollower.Configuration) {
            let handOff = EventHandOff(capacity: 1024)
            self.handOff = handOff
            let follower = EventFollower(
                types: configuration.types, roster: configuration.roster, options: configuration.options, context: configuration.context,
                handOff: handOff
            )
            DedicatedThread.start(named: "rc-events") { follower.run(after: after) }
        }

        deinit {
            handOff.stop()
        }
    }
}

extension EventFollower {
    /// What a stream's followers are made from.
    struct Configuration: Sendable {
        let types: Set<EventType>?
        let roster: FailoverRoster
        let options: RestaurantClientOptions
        let context: ZMQContext
    }
}

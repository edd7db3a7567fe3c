import WireContract
import ZeroMQ

/// What a load thread needs: which clients it runs, where they send, what, how fast and for how
/// long.
struct StressThreadPlan: Sendable {
    /// The thread's place among the run's threads (for its progress reports).
    let index: Int
    /// The indexes of the clients the thread runs (client *i* starts on instance *i* mod *n*).
    let clients: [Int]
    let context: ZMQContext
    /// The instances, and which of them are down.
    let cluster: LoadCluster
    /// Use-case addresses of each instance (`nil` for one not running at the start).
    let addresses: [[UseCaseName: String]?]
    let fixture: StressFixture
    let mix: StressMix
    let seed: UInt64
    /// The schedule's origin and end on the monotonic clock.
    let startNanoseconds: UInt64
    let endNanoseconds: UInt64
    /// Nanoseconds between one client's intended sends.
    let intervalNanoseconds: Double
    /// The run's number of clients: client *i*'s first send is `i / clientCount` of an interval
    /// after the start, so the run's sends are evenly spread.
    let clientCount: Int
    /// Requests one client may have waiting for replies.
    let maxOutstanding: Int
    let timeoutNanoseconds: UInt64
    /// The thread's wake-up period (``StressPlan/tickNanoseconds``): it reads replies and sends
    /// what is due at most once per tick, all together; 0: it wakes for each reply and send.
    let tickNanoseconds: UInt64
    /// How the thread's links connect: ``StressTransport/zmtp`` only when every instance can
    /// take it (see ``StressPlan/transport(forAddresses:)``).
    let transport: StressTransport
    /// The start of every idempotency key of this run (unique per run).
    let keyPrefix: String

    /// The largest reply a ZMTP link takes (a larger one ends its connection).
    static let maxReplyBytes = 64 << 20
    /// Request bytes a ZMTP link's connection holds while the socket takes no more (then sends
    /// are counted not sent, as a full libzmq queue).
    static let maxQueuedRequestBytes = 16 << 20

    /// The intended time of client `client`'s send number `slot` (from 0).
    func intendedTime(client: Int, slot: Int) -> UInt64 {
        Self.intendedTime(start: startNanoseconds, interval: intervalNanoseconds, client: client, of: clientCount, slot: slot)
    }

    /// The intended time of send `slot` of client `client` of `clientCount`, each sending every
    /// `interval` nanoseconds from `start`, a `1 / clientCount` of an interval after the previous
    /// client.
    static func intendedTime(start: UInt64, interval: Double, client: Int, of clientCount: Int, slot: Int) -> UInt64 {
        start + UInt64(interval * (Double(client) / Double(clientCount) + Double(slot)))
    }
}

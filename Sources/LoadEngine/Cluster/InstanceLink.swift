import WireContract
import ZeroMQ

/// A load thread's connections to one svcd instance, one per use case: through libzmq
/// (``ZMQInstanceLink``, any transport, CURVE) or spoken by the thread itself
/// (``ZMTPInstanceLink``, plain TCP, no other thread woken per request). Used by one thread.
protocol InstanceLink: AnyObject {
    /// The instance's index in the cluster.
    var instance: Int { get }

    /// Queues `request` to its use case's endpoint.
    func send(_ request: OutgoingRequest) -> InstanceLinkSend

    /// Writes what ``send(_:)`` queued, as far as the connections take it now.
    func flush()

    /// Lends every reply that has arrived to `reply`, without waiting.
    func receiveArrived(_ reply: (LentReply) -> Void) throws(ZMQError)

    /// Whether a connection dropped since the last call.
    func connectionLost() -> Bool

    /// The sockets to wait on in `zmq_poll` when the thread wakes for each reply (no tick):
    /// empty for a link without libzmq sockets, which only a ticking thread uses.
    var pollableSockets: [ZMQSocket] { get }

    /// Closes every connection (replies still on their way are dropped).
    func close()
}

/// A reply as an ``InstanceLink`` lends it to its reader, without copying: valid only during the
/// call it is lent to.
struct LentReply {
    /// How many frames it has (what a ROUTER answers a DEALER: 2, an empty delimiter and the body).
    let frameCount: Int
    /// Whether its first frame is empty.
    let startsWithDelimiter: Bool
    /// Its last frame.
    let body: UnsafeRawBufferPointer
}

/// What became of a request handed to an ``InstanceLink``.
enum InstanceLinkSend {
    /// On its way (or queued to be).
    case queued
    /// Not sent: the link's queue is full or its connection is down. It has no effect.
    case notSent
    /// The instance has no endpoint for the use case.
    case noEndpoint
}

/// Which kind of ``InstanceLink`` a stress run's load threads use.
public enum StressTransport: String, Sendable, CaseIterable {
    /// ZMTP spoken by each load thread over plain TCP (``ZMTPInstanceLink``): no I/O thread to
    /// wake per request and per reply. Taken when every address is `tcp://HOST:PORT`, no
    /// instance needs CURVE and the threads tick; otherwise the run uses libzmq.
    case zmtp
    /// libzmq DEALERs (``ZMQInstanceLink``).
    case libzmq
}

internal import CZeroMQ

/// The ZeroMQ socket patterns this module supports.
public enum ZMQSocketType: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `ZMQ_ROUTER`: prefixes every received message with the peer's routing id; sends by routing id.
    case router
    /// `ZMQ_DEALER`: asynchronous request/reply client, round-robins outgoing messages.
    case dealer
    /// `ZMQ_REQ`: strict send/receive alternation; adds an empty delimiter frame.
    case req
    /// `ZMQ_REP`: strict receive/send alternation; the reply goes to the last requester.
    case rep
    /// `ZMQ_PAIR`: exclusive one-to-one connection (mostly for `inproc://`).
    case pair
    /// `ZMQ_PUB`: publisher.
    case pub
    /// `ZMQ_SUB`: subscriber; call ``ZMQSocket/subscribe(_:)`` before receiving.
    case sub
    /// `ZMQ_PUSH`: pipeline producer.
    case push
    /// `ZMQ_PULL`: pipeline consumer.
    case pull

    var cValue: Int32 {
        switch self {
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        case .pair: ZMQ_PAIR
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        }
    }

    /// The libzmq name, e.g. `"ROUTER"`.
    public var description: String {
        switch self {
        case .router: "ROUTER"
        case .dealer: "DEALER"
        case .req: "REQ"
        case .rep: "REP"
        case .pair: "PAIR"
        case .pub: "PUB"
        case .sub: "SUB"
        case .push: "PUSH"
        case .pull: "PULL"
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import BenchmarkSupport
import WireContract
import ZeroMQ

/// An ``InstanceLink`` that speaks ZMTP itself (``ZMTPConnection``): one TCP connection per use
/// case, written once per round by its load thread and read when the thread wakes, so no other
/// thread wakes per request or per reply. A connection that drops is reported by
/// ``connectionLost()`` and connected again when a request is next sent its way, first after
/// ``reconnectIntervalNanoseconds``, then after twice as long each time it fails, up to
/// ``maxReconnectIntervalNanoseconds`` (a connect blocks the thread up to its timeout: an
/// unreachable host must not stall it often); until then requests for it are not sent (counted,
/// no effect), and what was on its way is lost (those requests time out), as with a libzmq DEALER.
final class ZMTPInstanceLink: InstanceLink {
    /// The time before the first attempt to connect a dropped connection again.
    static let reconnectIntervalNanoseconds: UInt64 = 100_000_000
    /// The longest time between attempts.
    static let maxReconnectIntervalNanoseconds: UInt64 = 2_000_000_000

    let instance: Int
    // Each indexed by the use case's place in `UseCaseName.allCases` (a use case's hash is its
    // name's: too slow for every request).
    private var addresses: [ZMTPAddress?]
    private var connections: [ZMTPConnection?]
    /// When each connection that is not open may be tried again.
    private var retryAt: [UInt64]
    /// The wait before the next attempt after another failure, per connection that failed.
    private var retryInterval: [UInt64?]
    private var dropped = false
    /// The places of connections with queued bytes not yet written, each once.
    private var unflushed: [Int] = []
    private var isUnflushed: [Bool]
    private var pollSet: [pollfd] = []
    /// The places of the use cases whose connections are in `pollSet`, in its order (places, not
    /// connections: emptying an array of references releases each, every round).
    private var polled: [Int] = []
    /// Calls of ``receiveArrived(_:)`` since every connection was last polled.
    private var callsSinceFullPoll = 0
    /// How often every connection is polled, not only those awaiting replies: often enough to
    /// answer the peer's heartbeat `PING`s (svcd: every 2 s, a 6 s timeout) and see a
    /// connection closed while idle; a round is at most 50 ms, so within 0.8 s.
    static let fullPollEvery = 16
    private let timeoutMilliseconds: Int
    private let maxMessageBytes: Int
    private let queueLimitBytes: Int

    /// Connects to each of `useCases` that has an address, waiting at most `timeoutMilliseconds`
    /// per step. One that cannot be connected counts as dropped (see ``connectionLost()``).
    init(
        instance: Int, addresses: [UseCaseName: ZMTPAddress], useCases: [UseCaseName], timeoutMilliseconds: Int, maxMessageBytes: Int,
        queueLimitBytes: Int
    ) {
        self.instance = instance
        let all = UseCaseName.allCases
        self.addresses = all.map { useCases.contains($0) ? addresses[$0] : nil }
        connections = Array(repeating: nil, count: all.count)
        retryAt = Array(repeating: 0, count: all.count)
        retryInterval = Array(repeating: nil, count: all.count)
        isUnflushed = Array(repeating: false, count: all.count)
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxMessageBytes = maxMessageBytes
        self.queueLimitBytes = queueLimitBytes
        for useCase in all.indices where self.addresses[useCase] != nil { _ = open(useCase, now: 0) }
    }

    /// The open connection of the use case at `useCase`, connecting it (again) when it is due.
    private func open(_ useCase: Int, now: UInt64) -> ZMTPConnection? {
        if let connection = connections[useCase] { return connection }
        guard let address = addresses[useCase], now >= retryAt[useCase] else { return nil }
        do throws(ZMTPFailure) {
            let connection = try ZMTPConnection(
                connectingTo: address, timeoutMilliseconds: timeoutMilliseconds, maxMessageBytes: maxMessageBytes, queueLimitBytes: queueLimitBytes)
            connections[useCase] = connection
            retryAt[useCase] = 0
            retryInterval[useCase] = nil
            return connection
        } catch {
            drop(useCase)
            return nil
        }
    }

    private func drop(_ useCase: Int) {
        connections[useCase]?.close()
        connections[useCase] = nil
        let interval = retryInterval[useCase] ?? Self.reconnectIntervalNanoseconds
        retryAt[useCase] = MonotonicClock.nanoseconds() + interval
        retryInterval[useCase] = min(interval * 2, Self.maxReconnectIntervalNanoseconds)
        dropped = true
    }

    func send(_ request: OutgoingRequest) -> InstanceLinkSend {
        let place = request.useCaseIndex
        guard addresses[place] != nil else { return .noEndpoint }
        let now = connections[place] == nil ? MonotonicClock.nanoseconds() : 0
        guard let connection = open(place, now: now), connection.queueRequest(byteCount: request.byteCount, write: request.append(to:)) else {
            return .notSent
        }
        noteUnflushed(place)
        return .queued
    }

    /// Puts the connection at `place` on the list ``flush()`` writes, once.
    private func noteUnflushed(_ place: Int) {
        guard !isUnflushed[place] else { return }
        isUnflushed[place] = true
        unflushed.append(place)
    }

    func flush() {
        guard !unflushed.isEmpty else { return }
        var stillQueued = 0
        for place in unflushed {
            guard let connection = connections[place] else {
                isUnflushed[place] = false
                continue
            }
            do throws(ZMTPFailure) { try connection.flush() } catch { drop(place) }
            if let connection = connections[place], connection.hasUnwrittenBytes {
                unflushed[stillQueued] = place
                stillQueued += 1
            } else {
                isUnflushed[place] = false
            }
        }
        unflushed.removeLast(unflushed.count - stillQueued)
    }

    func receiveArrived(_ reply: (LentReply) -> Void) throws(ZMQError) {
        // Only the connections awaiting replies (a `poll` costs per descriptor): at a few
        // requests per round most of a link's connections have nothing to read.
        callsSinceFullPoll += 1
        let everyConnection = callsSinceFullPoll >= Self.fullPollEvery
        if everyConnection { callsSinceFullPoll = 0 }
        pollSet.removeAll(keepingCapacity: true)
        polled.removeAll(keepingCapacity: true)
        for (useCase, connection) in connections.enumerated() {
            guard let connection, everyConnection || connection.awaitingReplies > 0 else { continue }
            polled.append(useCase)
            pollSet.append(pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0))
        }
        guard !pollSet.isEmpty else { return }
        let ready = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 0) }
        guard ready > 0 else { return }
        for (index, entry) in pollSet.enumerated() where entry.revents != 0 {
            let useCase = polled[index]
            guard let connection = connections[useCase] else { continue }
            do throws(ZMTPFailure) {
                try connection.receive { frames in
                    reply(LentReply(frameCount: frames.count, startsWithDelimiter: frames[0].isEmpty, body: frames[frames.count - 1]))
                }
                // A PONG the socket did not take whole is finished by the next flush, not left
                // until a request happens to go this way (svcd would drop the connection).
                if connection.hasUnwrittenBytes { noteUnflushed(useCase) }
            } catch {
                drop(useCase)
            }
        }
    }

    /// The peer's heartbeat `PING`s answered on the open connections.
    var pingsAnswered: Int {
        connections.reduce(0) { $0 + ($1?.pingsAnswered ?? 0) }
    }

    func connectionLost() -> Bool {
        defer { dropped = false }
        return dropped
    }

    var pollableSockets: [ZMQSocket] { [] }

    func close() {
        for connection in connections { connection?.close() }
        connections = connections.map { _ in nil }
    }
}

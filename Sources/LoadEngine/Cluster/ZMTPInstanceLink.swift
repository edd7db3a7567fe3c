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
    private var pollSet: [pollfd] = []
    /// The connections in `pollSet`'s order, with their use cases' places.
    private var polled: [(useCase: Int, connection: ZMTPConnection)] = []
    private var pollSetIsStale = true
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
            pollSetIsStale = true
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
        pollSetIsStale = true
    }

    func send(_ request: OutgoingRequest, to useCase: UseCaseName) -> InstanceLinkSend {
        let place = UseCaseName.allCases.firstIndex(of: useCase)!
        guard addresses[place] != nil else { return .noEndpoint }
        let now = connections[place] == nil ? MonotonicClock.nanoseconds() : 0
        guard let connection = open(place, now: now), connection.queueRequest(byteCount: request.byteCount, write: request.append(to:)) else {
            return .notSent
        }
        return .queued
    }

    func flush() {
        for (useCase, connection) in connections.enumerated() {
            guard let connection, connection.hasUnwrittenBytes else { continue }
            do throws(ZMTPFailure) { try connection.flush() } catch { drop(useCase) }
        }
    }

    func receiveArrived(_ reply: (LentReply) -> Void) throws(ZMQError) {
        if pollSetIsStale {
            polled = connections.enumerated().compactMap { useCase, connection in connection.map { (useCase, $0) } }
            pollSet = polled.map { pollfd(fd: $0.connection.descriptor, events: Int16(POLLIN), revents: 0) }
            pollSetIsStale = false
        }
        guard !pollSet.isEmpty else { return }
        let ready = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 0) }
        guard ready > 0 else { return }
        for (index, entry) in pollSet.enumerated() where entry.revents != 0 {
            do throws(ZMTPFailure) {
                try polled[index].connection.receive { frames in
                    reply(LentReply(frameCount: frames.count, startsWithDelimiter: frames[0].isEmpty, body: frames[frames.count - 1]))
                }
            } catch {
                drop(polled[index].useCase)
            }
        }
    }

    func connectionLost() -> Bool {
        defer { dropped = false }
        return dropped
    }

    var pollableSockets: [ZMQSocket] { [] }

    func close() {
        for connection in connections { connection?.close() }
        connections = connections.map { _ in nil }
        pollSetIsStale = true
    }
}

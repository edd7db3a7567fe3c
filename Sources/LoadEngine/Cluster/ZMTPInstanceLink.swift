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
    private let addresses: [UseCaseName: ZMTPAddress]
    private var connections: [UseCaseName: ZMTPConnection] = [:]
    /// When each connection that is not open may be tried again.
    private var retryAt: [UseCaseName: UInt64] = [:]
    /// The wait before the next attempt after another failure, per connection that failed.
    private var retryInterval: [UseCaseName: UInt64] = [:]
    private var dropped = false
    private var pollSet: [pollfd] = []
    /// The connections in `pollSet`'s order, with their use cases.
    private var polled: [(useCase: UseCaseName, connection: ZMTPConnection)] = []
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
        self.addresses = addresses.filter { useCases.contains($0.key) }
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxMessageBytes = maxMessageBytes
        self.queueLimitBytes = queueLimitBytes
        for useCase in useCases where self.addresses[useCase] != nil { _ = open(useCase, now: 0) }
    }

    /// The open connection of `useCase`, connecting it (again) when it is due.
    private func open(_ useCase: UseCaseName, now: UInt64) -> ZMTPConnection? {
        if let connection = connections[useCase] { return connection }
        guard let address = addresses[useCase], now >= retryAt[useCase, default: 0] else { return nil }
        do throws(ZMTPFailure) {
            let connection = try ZMTPConnection(
                connectingTo: address, timeoutMilliseconds: timeoutMilliseconds, maxMessageBytes: maxMessageBytes, queueLimitBytes: queueLimitBytes)
            connections[useCase] = connection
            retryAt[useCase] = nil
            retryInterval[useCase] = nil
            pollSetIsStale = true
            return connection
        } catch {
            drop(useCase)
            return nil
        }
    }

    private func drop(_ useCase: UseCaseName) {
        connections.removeValue(forKey: useCase)?.close()
        let interval = retryInterval[useCase] ?? Self.reconnectIntervalNanoseconds
        retryAt[useCase] = MonotonicClock.nanoseconds() + interval
        retryInterval[useCase] = min(interval * 2, Self.maxReconnectIntervalNanoseconds)
        dropped = true
        pollSetIsStale = true
    }

    func send(_ body: [UInt8], to useCase: UseCaseName) -> InstanceLinkSend {
        guard addresses[useCase] != nil else { return .noEndpoint }
        let now = connections[useCase] == nil ? MonotonicClock.nanoseconds() : 0
        guard let connection = open(useCase, now: now), connection.queueRequest(body) else { return .notSent }
        return .queued
    }

    func flush() {
        for (useCase, connection) in connections where connection.hasUnwrittenBytes {
            do throws(ZMTPFailure) { try connection.flush() } catch { drop(useCase) }
        }
    }

    func receiveArrived(_ reply: ([[UInt8]]) -> Void) throws(ZMQError) {
        if pollSetIsStale {
            polled = connections.map { ($0.key, $0.value) }
            pollSet = polled.map { pollfd(fd: $0.connection.descriptor, events: Int16(POLLIN), revents: 0) }
            pollSetIsStale = false
        }
        guard !pollSet.isEmpty else { return }
        let ready = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 0) }
        guard ready > 0 else { return }
        for (index, entry) in pollSet.enumerated() where entry.revents != 0 {
            do throws(ZMTPFailure) { try polled[index].connection.receive(reply) } catch { drop(polled[index].useCase) }
        }
    }

    func connectionLost() -> Bool {
        defer { dropped = false }
        return dropped
    }

    var pollableSockets: [ZMQSocket] { [] }

    func close() {
        for connection in connections.values { connection.close() }
        connections.removeAll()
        pollSetIsStale = true
    }
}

import Foundation
import Synchronization
import WireContract
import WireJSON
import WireTestSupport

/// A steady load on a cluster from outside: each client on its own thread sends one request at a
/// time to its instance over a DEALER and records when it sent it, when (and what) the answer
/// came, until told to stop. Records are visible while the load runs, so a test can wait for a
/// condition on them (``waitUntil(timeout:_:)``) instead of sleeping.
///
/// A client that gets no reply within the receive timeout records that, opens a fresh
/// connection and, if it fails over, resends the same request (same params, same idempotency
/// key) to the next instance, as a cluster client does when its instance is lost.
public final class ClusterLoad: Sendable {
    /// One client of the load.
    public struct Client: Sendable {
        /// The instance it starts on.
        public let instance: Int
        /// Whether it moves to the next instance (and resends there) after a request got no reply.
        public let failsOver: Bool
        /// Its `n`-th request (from 0).
        public let request: @Sendable (Int) -> Request

        public init(instance: Int, failsOver: Bool = false, request: @escaping @Sendable (Int) -> Request) {
            self.instance = instance
            self.failsOver = failsOver
            self.request = request
        }
    }

    /// A request a client sends.
    public struct Request: Sendable {
        public let useCase: UseCaseName
        public let params: JSONValue
        public let idempotencyKey: String?

        public init(_ useCase: UseCaseName, _ params: JSONValue, idempotencyKey: String? = nil) {
            self.useCase = useCase
            self.params = params
            self.idempotencyKey = idempotencyKey
        }
    }

    /// One attempt of one request and what became of it.
    public struct Record: Sendable {
        /// The client that sent it and the request's number in that client's sequence.
        public let client: Int, sequence: Int
        /// The instance it went to.
        public let instance: Int
        public let request: Request
        public let sentAt: ContinuousClock.Instant
        /// When the reply came; `nil`: none within the receive timeout.
        public let answeredAt: ContinuousClock.Instant?
        public let reply: Reply?

        /// Send to reply; `nil` without a reply.
        public var latency: Duration? { answeredAt.map { $0 - sentAt } }
        /// Whether the reply said ok.
        public var ok: Bool { reply?.ok == true }
        /// The reply's error code, `nil` when ok or without a reply.
        public var code: String? { reply?.code }
    }

    private let recorded = Mutex<[Record]>([])
    private let stopping = Atomic<Bool>(false)
    private let tasks = Mutex<[Task<Void, any Error>]>([])

    private init() {}

    /// Starts `clients` against `cluster`'s current instances (addresses are read once, now).
    public static func start(_ cluster: SvcdCluster, clients: [Client], receiveTimeout milliseconds: Int32 = 10_000) throws -> ClusterLoad {
        let addresses = try cluster.indices.map { try cluster.endpoints($0).useCases }
        let load = ClusterLoad()
        let started = clients.enumerated().map { index, client in
            Task { try await onThread { try load.drive(client, index: index, addresses: addresses, timeout: milliseconds) } }
        }
        load.tasks.withLock { $0 = started }
        return load
    }

    /// Every attempt recorded so far, in the order the replies came (or the timeouts ended).
    public var records: [Record] { recorded.withLock { $0 } }

    /// Polls the records every 20 ms until `condition` holds; throws after `timeout` seconds.
    public func waitUntil(timeout seconds: Double, _ what: String, _ condition: ([Record]) -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while !condition(records) {
            guard clock.now < deadline else { throw ChildFailure("the load did not reach this within \(seconds) s: \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Stops every client after its current request and returns all records.
    @discardableResult
    public func finish() async throws -> [Record] {
        stopping.store(true, ordering: .relaxed)
        var failure: (any Error)?
        for task in tasks.withLock({ $0 }) {
            do { try await task.value } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        return records
    }

    /// One client's loop, on its own thread.
    private func drive(_ client: Client, index: Int, addresses: [[UseCaseName: String]], timeout: Int32) throws {
        let clock = ContinuousClock()
        var instance = client.instance
        var connections: [String: WireClient] = [:]
        defer { for connection in connections.values { connection.close() } }
        var sequence = 0
        while !stopping.load(ordering: .relaxed) {
            let request = client.request(sequence)
            var attempt = 0
            while true {
                attempt += 1
                let name = "\(request.useCase)@\(instance)"
                guard let address = addresses[instance][request.useCase] else { throw ChildFailure("no endpoint \(name)") }
                let connection = try connections[name] ?? WireClient(.dealer, connectTo: address, receiveTimeout: timeout)
                connections[name] = connection
                let id = "\(index)-\(sequence)-\(attempt)"
                let extra: [(String, JSONValue)] = request.idempotencyKey.map { [("idempotencyKey", .string($0))] } ?? []
                let sentAt = clock.now
                try connection.send(body: WireTestSupport.request(id: id, params: request.params, extra: extra))
                var reply: Reply?
                while let received = try connection.receiveReply() {
                    if received.id?.stringValue == id {
                        reply = received
                        break
                    }
                }
                let record = Record(
                    client: index, sequence: sequence, instance: instance, request: request, sentAt: sentAt,
                    answeredAt: reply == nil ? nil : clock.now, reply: reply)
                recorded.withLock { $0.append(record) }
                guard reply == nil else { break }
                // No reply: a late one must not be taken for the next request's.
                connections.removeValue(forKey: name)?.close()
                guard client.failsOver else { break }
                instance = (instance + 1) % addresses.count
                // Once stopping, a request no instance answers is given up (and stays unanswered).
                if stopping.load(ordering: .relaxed) && attempt > addresses.count { break }
            }
            sequence += 1
        }
    }
}

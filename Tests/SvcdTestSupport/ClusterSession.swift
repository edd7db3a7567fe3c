import Foundation
import WireContract
import WireJSON
import WireTestSupport

/// One client's connections to a cluster: a DEALER per use case and instance, opened when first
/// used, each carrying one request at a time. Created, used and closed on one thread (see
/// ``withClusterSession(_:receiveTimeout:_:)``), so blocking on a reply never occupies the
/// cooperative pool.
public final class ClusterSession {
    private let addresses: [[UseCaseName: String]]
    private let receiveTimeout: Int32
    private var connections: [String: WireClient] = [:]
    private var sequence = 0

    /// A session over `addresses` (per instance, use case → address).
    public init(addresses: [[UseCaseName: String]], receiveTimeout milliseconds: Int32) {
        self.addresses = addresses
        receiveTimeout = milliseconds
    }

    /// Sends one request to `useCase` on instance `instance` and waits for its reply; `nil` when
    /// none came within the receive timeout (the connection is then dropped, so a late reply
    /// cannot be taken for the next request's).
    public func call(_ useCase: UseCaseName, on instance: Int, _ params: JSONValue, idempotencyKey: String? = nil) throws -> Reply? {
        let connection = try self.connection(useCase, instance)
        sequence += 1
        let id = "s\(sequence)"
        try connection.send(body: request(id: id, params: params, extra: idempotencyKey.map { [("idempotencyKey", .string($0))] } ?? []))
        while let reply = try connection.receiveReply() {
            if reply.id?.stringValue == id { return reply }
        }
        connections.removeValue(forKey: "\(useCase)@\(instance)")?.close()
        return nil
    }

    private func connection(_ useCase: UseCaseName, _ instance: Int) throws -> WireClient {
        let name = "\(useCase)@\(instance)"
        if let open = connections[name] { return open }
        guard let address = addresses[instance][useCase] else { throw NoSuchUseCase(useCase: useCase, instance: instance) }
        let opened = try WireClient(.dealer, connectTo: address, receiveTimeout: receiveTimeout)
        connections[name] = opened
        return opened
    }

    /// Closes every connection.
    public func close() {
        for connection in connections.values { connection.close() }
        connections.removeAll()
    }

    /// The instance has no endpoint of that name.
    public struct NoSuchUseCase: Error, CustomStringConvertible {
        public let useCase: UseCaseName
        public let instance: Int
        public var description: String { "instance \(instance) has no endpoint \(useCase)" }
    }
}

/// Opens a session over the current instances of `cluster` on a fresh thread, runs `body` with
/// it there and always closes it.
public func withClusterSession<T: Sendable>(
    _ cluster: SvcdCluster, receiveTimeout milliseconds: Int32 = 20_000, _ body: @escaping @Sendable (ClusterSession) throws -> T
) async throws -> T {
    let addresses = try cluster.indices.map { try cluster.endpoints($0).useCases }
    return try await onThread {
        let session = ClusterSession(addresses: addresses, receiveTimeout: milliseconds)
        defer { session.close() }
        return try body(session)
    }
}

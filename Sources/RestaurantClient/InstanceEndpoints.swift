import Synchronization
import WireContract
import WireJSON
import ZeroMQ

/// The current use-case addresses of one svcd instance: a fixed map, or its `endpoints.json`,
/// parsed when first needed and again whenever the file's stamp changes.
///
/// Only the client's I/O threads call ``resolve()`` (it reads files); the cache is shared by
/// all of them.
final class InstanceEndpoints: Sendable {
    /// Addresses and the version of the file they came from (`nil` for a fixed map).
    struct Resolved: Sendable {
        let addresses: [UseCaseName: String]
        let stamp: EndpointsFileStamp?
        /// The use-case endpoints' CURVE public key; `nil`: plaintext.
        var serverKey: String?
        /// The live event stream's address (`endpoints.json`'s `events`), if known.
        var eventStream: String?
        /// The event log's address (`endpoints.json`'s `eventLog`), if known.
        var eventLog: String?
    }

    let location: SvcdInstance
    /// The instance's own client keys (``SvcdInstance/keyed(_:clientKeys:)``).
    let clientKeys: ClientKeys?
    private let cache = Mutex<Resolved?>(nil)

    init(_ instance: SvcdInstance) {
        (location, clientKeys) = instance.unkeyed
    }

    /// The addresses as last resolved; empty before the first successful read of a file.
    var lastKnownAddresses: [UseCaseName: String] {
        switch location {
        case .addresses(let map), .curveAddresses(let map, _): map
        case .endpointsFile, .keyed: cache.withLock { $0?.addresses ?? [:] }
        }
    }

    /// The stamp of the instance's file now (`nil` for a fixed map or a missing file).
    func currentStamp() -> EndpointsFileStamp? {
        guard case .endpointsFile(let path) = location else { return nil }
        return EndpointsFileStamp.current(path)
    }

    /// The addresses now: the fixed map, or the file's, re-read if it changed since last time.
    /// - Returns: ``RestaurantClientError/unavailable(_:)`` when the file cannot be read or
    ///   parsed.
    func resolve() -> Result<Resolved, RestaurantClientError> {
        let path: String
        switch location {
        case .addresses(let map): return .success(Resolved(addresses: map, stamp: nil))
        case .curveAddresses(let map, let serverKey): return .success(Resolved(addresses: map, stamp: nil, serverKey: serverKey))
        case .endpointsFile(let file): path = file
        case .keyed: preconditionFailure("a keyed instance is unwrapped at init")
        }
        if let stamp = EndpointsFileStamp.current(path), let cached = cache.withLock({ $0 }), cached.stamp == stamp {
            return .success(cached)
        }
        guard let file = EndpointsFileStamp.read(path) else {
            return .failure(.unavailable("cannot read \(path); is svcd running?"))
        }
        let resolved: Resolved
        switch Self.parseEndpoints(file.bytes, path: path) {
        case .success(let parsed):
            resolved = Resolved(
                addresses: parsed.useCases, stamp: file.stamp, serverKey: parsed.useCaseServerKey, eventStream: parsed.events, eventLog: parsed.eventLog
            )
        case .failure(let error): return .failure(error)
        }
        cache.withLock { $0 = resolved }
        return .success(resolved)
    }

    /// An `endpoints.json` (unknown use-case names are ignored), whose `useCaseServerKey`, if
    /// any, is a key.
    static func parseEndpoints(_ bytes: [UInt8], path: String) -> Result<EndpointsFile, RestaurantClientError> {
        let file: EndpointsFile
        do {
            file = try EndpointsFile.parse(bytes)
        } catch {
            return .failure(.unavailable("\(path): \(error)"))
        }
        if let serverKey = file.useCaseServerKey, !ZMQCurve.isKey(serverKey) {
            return .failure(.unavailable("\(path) holds a malformed use-case server key"))
        }
        return .success(file)
    }
}

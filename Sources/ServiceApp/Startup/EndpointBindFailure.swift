import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

/// An endpoint could not bind its address at start-up: the message names the endpoint, the
/// address and what to do about the usual causes.
public struct EndpointBindFailure: Error, CustomStringConvertible {
    /// The endpoint: a use case's name or `admin`.
    public let endpoint: String
    /// The address it was to bind, e.g. `tcp://127.0.0.1:7101`.
    public let address: String
    /// What libzmq said.
    public let cause: any Error

    public var description: String {
        var text = "cannot bind the \(endpoint) endpoint to \(address): \(cause)"
        if let zmq = cause as? ZMQError {
            switch zmq.code {
            case EADDRINUSE:
                text += "; another process listens on that port: stop it or choose another --port-base"
            case EADDRNOTAVAIL, ENODEV:
                text += "; --host must be an address of this machine"
            default:
                break
            }
        }
        return text
    }

    /// Runs `bind`, naming `endpoint` and `address` in the error it throws.
    static func naming<T>(_ endpoint: String, _ address: String, _ bind: () async throws -> T) async throws -> T {
        do {
            return try await bind()
        } catch {
            throw EndpointBindFailure(endpoint: endpoint, address: address, cause: error)
        }
    }
}

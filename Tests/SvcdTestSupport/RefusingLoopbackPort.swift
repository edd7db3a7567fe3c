import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP address where nothing listens and nothing can start listening while this
/// value lives: the port is held by a socket that is bound but never listens, so a connection
/// to it is refused at once, and no other socket (of any test running in parallel) can bind it,
/// which a port that was bound and closed again cannot promise.
public final class RefusingLoopbackPort: Sendable {
    /// `tcp://127.0.0.1:PORT`.
    public let address: String
    private let descriptor: Int32

    /// Reserves a port until this value is released (keep it alive with `withExtendedLifetime`
    /// while the port must refuse).
    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PortReservationError(step: "socket", code: errno) }
        // No SO_REUSEADDR: with it, another socket could bind the same port.
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw PortReservationError(step: "bind", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw PortReservationError(step: "getsockname", code: code)
        }
        self.descriptor = descriptor
        self.address = "tcp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }

    deinit {
        Glibc.close(descriptor)
    }
}

/// Reserving a refusing port failed at `step` with `errno` `code`.
public struct PortReservationError: Error, CustomStringConvertible {
    /// The system call that failed.
    public let step: String
    /// Its `errno`.
    public let code: Int32

    public var description: String { "\(step) failed: \(String(cString: strerror(code)))" }
}

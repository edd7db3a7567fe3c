import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking IPv4 TCP socket for test clients and for holding a port.
public final class LoopbackSocket: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A socket listening on `127.0.0.1` at an ephemeral port: holds that port until closed.
    public static func listening() throws -> LoopbackSocket {
        let socket = try bound()
        try socket.closing(unless: listen(socket.descriptor, 16), "cannot listen on 127.0.0.1")
        return socket
    }

    /// A socket bound to `127.0.0.1` at an ephemeral port that never listens: a connection to
    /// ``address`` is refused at once, and no other socket (of any test running in parallel) can
    /// bind that port until this one is closed — which a port bound and closed again cannot
    /// promise. (No `SO_REUSEADDR`: with it another socket could bind the port.)
    public static func refusing() throws -> LoopbackSocket {
        try bound()
    }

    /// Like ``refusing()``, at `port`; `nil` when that port is taken.
    public static func refusing(port: Int) throws -> LoopbackSocket? {
        try? bound(port: port)
    }

    private static func bound(port: Int = 0) throws -> LoopbackSocket {
        let socket = try LoopbackSocket(descriptor: make())
        let bound = try withLoopbackAddress("127.0.0.1", port: port) { bind(socket.descriptor, $0, $1) }
        try socket.closing(unless: bound, "cannot bind 127.0.0.1")
        return socket
    }

    /// `tcp://127.0.0.1:PORT` of the bound port, as ZeroMQ names it.
    public var address: String {
        get throws { "tcp://127.0.0.1:\(try port)" }
    }

    /// Connects to `host:port`; sends and receives time out after `timeout` seconds.
    public static func connected(to host: String, port: Int, timeout: Double) throws -> LoopbackSocket {
        let socket = try LoopbackSocket(descriptor: make())
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket.descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = try withLoopbackAddress(host, port: port) { connect(socket.descriptor, $0, $1) }
        try socket.closing(unless: connected, "cannot connect to \(host):\(port)")
        return socket
    }

    /// The bound port.
    public var port: Int {
        get throws {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            guard named == 0 else { throw ChildFailure("getsockname: \(String(cString: strerror(errno)))") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    /// Sends all of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw ChildFailure("send: \(String(cString: strerror(errno)))") }
            sent += written
        }
    }

    /// Everything received until the peer closes the connection.
    public func receiveUntilClosed() throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received }
            guard count > 0 else { throw ChildFailure("recv after \(received.count) bytes: \(String(cString: strerror(errno)))") }
            received += chunk[..<count]
        }
    }

    /// Closes the socket.
    public func close() {
        _ = Glibc.close(descriptor)
    }

    private static func make() throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ChildFailure("socket: \(String(cString: strerror(errno)))") }
        return descriptor
    }

    /// Calls `body` (bind, connect) with the IPv4 address `host:port`; returns what it returned.
    private static func withLoopbackAddress(
        _ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw ChildFailure("not an IPv4 address: \(host)") }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// After a set-up call that returned `result`: on failure, closes the socket and throws
    /// `what` with the call's errno.
    private func closing(unless result: Int32, _ what: String) throws {
        guard result != 0 else { return }
        let code = errno
        close()
        throw ChildFailure("\(what): \(String(cString: strerror(code)))")
    }
}


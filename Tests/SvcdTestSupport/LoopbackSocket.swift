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
        guard listen(socket.descriptor, 16) == 0 else {
            let code = errno
            socket.close()
            throw ChildFailure("cannot listen on 127.0.0.1: \(String(cString: strerror(code)))")
        }
        return socket
    }

    /// A socket bound to `127.0.0.1` at an ephemeral port that never listens: a connection to
    /// ``address`` is refused at once, and no other socket (of any test running in parallel) can
    /// bind that port until this one is closed — which a port bound and closed again cannot
    /// promise. (No `SO_REUSEADDR`: with it another socket could bind the port.)
    public static func refusing() throws -> LoopbackSocket {
        try bound()
    }

    private static func bound() throws -> LoopbackSocket {
        let socket = try LoopbackSocket(descriptor: make())
        var address = try loopbackAddress("127.0.0.1", port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            socket.close()
            throw ChildFailure("cannot bind 127.0.0.1: \(String(cString: strerror(code)))")
        }
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
        var address = try loopbackAddress(host, port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            socket.close()
            throw ChildFailure("cannot connect to \(host):\(port): \(String(cString: strerror(code)))")
        }
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

    private static func loopbackAddress(_ host: String, port: Int) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw ChildFailure("not an IPv4 address: \(host)") }
        return address
    }
}


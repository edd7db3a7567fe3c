import Foundation
import WireTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 response as a test sees it.
public struct HTTPProbeResponse: Sendable {
    /// The status code (200, 404, …).
    public let status: Int
    /// Header fields, names lowercased.
    public let headers: [String: String]
    /// The body as text.
    public let body: String
}

/// A minimal HTTP/1.1 client over a plain TCP socket, for tests that check a real listener:
/// one request per connection (`Connection: close`), the response read until the server closes.
public enum HTTPProbe {
    /// Sends `method path` to `host:port` and returns the response; throws when it cannot
    /// connect, the exchange takes longer than `timeout` seconds, or the answer is not HTTP/1.1.
    public static func request(_ method: String = "GET", host: String = "127.0.0.1", port: Int, path: String, timeout: Double = 10) async throws -> HTTPProbeResponse {
        try await onThread { try exchange(method, host: host, port: port, path: path, timeout: timeout) }
    }

    private static func exchange(_ method: String, host: String, port: Int, path: String, timeout: Double) throws -> HTTPProbeResponse {
        let socket = try LoopbackSocket.connected(to: host, port: port, timeout: timeout)
        defer { socket.close() }
        try socket.send(Array("\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8))
        let raw = try socket.receiveUntilClosed()
        guard let split = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw ChildFailure("no end of the response head in \(raw.count) bytes: \(String(decoding: raw, as: UTF8.self))")
        }
        let head = String(decoding: raw[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw ChildFailure("not an HTTP/1.1 status line: \(head[0])")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(raw[split.upperBound...])
        if let length = headers["content-length"].flatMap(Int.init), length != body.count {
            throw ChildFailure("Content-Length \(length) but \(body.count) body bytes")
        }
        return HTTPProbeResponse(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
    }
}

/// A blocking IPv4 TCP socket for test clients and for holding a port.
public final class LoopbackSocket: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A socket listening on `127.0.0.1` at an ephemeral port: holds that port until closed.
    public static func listening() throws -> LoopbackSocket {
        let socket = try LoopbackSocket(descriptor: make())
        var address = try loopbackAddress("127.0.0.1", port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket.descriptor, 16) == 0 else {
            let code = errno
            socket.close()
            throw ChildFailure("cannot listen on 127.0.0.1: \(String(cString: strerror(code)))")
        }
        return socket
    }

    /// Connects to `host:port`; sends and receives time out after `timeout` seconds.
    static func connected(to host: String, port: Int, timeout: Double) throws -> LoopbackSocket {
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
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw ChildFailure("send: \(String(cString: strerror(errno)))") }
            sent += written
        }
    }

    /// Everything received until the peer closes the connection.
    func receiveUntilClosed() throws -> [UInt8] {
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

extension EndpointsFile {
    /// The port of the monitoring listener svcd published as `http` (started with
    /// `--http-port 0`, so no port is guessed and raced for).
    public func httpPort() throws -> Int {
        guard let url = raw["http"]?.stringValue, let port = url.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw ChildFailure("endpoints.json has no http address: \(raw)")
        }
        return port
    }
}

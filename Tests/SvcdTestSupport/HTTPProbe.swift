import Foundation
import WireContract
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

extension EndpointsFile {
    /// The port of the monitoring listener svcd published as `http` (started with
    /// `--http-port 0`, so no port is guessed and raced for).
    public func httpPort() throws -> Int {
        guard let url = http, let port = url.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw ChildFailure("endpoints.json has no http address: \(self)")
        }
        return port
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Testing
import WireContract
@testable import LoadEngine

/// ``ZMTPInstanceLink`` against a peer written here, which can do what libzmq never does: stop
/// reading while it sends.
@Suite("A load thread's link that speaks ZMTP itself")
struct ZMTPInstanceLinkTests {
    /// A listening loopback socket whose accepted connection takes little before its sender
    /// must wait; its address.
    static func listener() throws -> (descriptor: Int32, address: ZMTPAddress) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        var small: Int32 = 4_096
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(descriptor, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, try #require(ZMTPAddress("tcp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")))
    }

    /// What the test and the peer's thread tell each other.
    final class PeerState: Sendable {
        /// The PONGs the peer read, once it has read all it will; -1 before.
        let pongsRead = Mutex(-1)
        /// Set when the peer may start reading.
        let mayRead = Mutex(false)
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    static func read(_ count: Int, from descriptor: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while total < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, min($0.count, count - total), 0) }
            guard got > 0 else { break }
            total += got
        }
        return total
    }

    @Test func pongsTheSocketDidNotTakeAreWrittenByLaterFlushesWithoutARequest() throws {
        let (listening, address) = try Self.listener()
        defer { _ = close(listening) }
        // More PONGs than the kernel's buffers hold (up to 4 MiB for the client's sends).
        let pings = 300_000
        // A PING (`\x04PING`, a TTL of 0, 16 bytes of context) and the PONG it asks for
        // (`\x04PONG` and the context).
        let context = Array("0123456789abcdef".utf8)
        let ping: [UInt8] = [0x04, 7 + 16, 4] + Array("PING".utf8) + [0, 0] + context
        let pongBytes = 2 + 1 + "PONG".utf8.count + context.count
        let state = PeerState()

        // The peer: a ROUTER's greeting and READY, the client's read and left alone, then every
        // PING at once without reading (the PONGs fill both kernel buffers), then the PONGs.
        let peer = Thread {
            let connection = accept(listening, nil, nil)
            defer { if connection >= 0 { _ = close(connection) } }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var hello = ZMTPConnection.greeting
            var ready = ZMTPConnection.commandBody("READY") + ZMTPConnection.commandBody("Socket-Type")
            ready += [0, 0, 0, 6] + Array("ROUTER".utf8)
            ZMTPConnection.appendFrame(ready, command: true, to: &hello)
            // The client's greeting (64 bytes) and its READY naming DEALER (a 2-byte header, 28 of body).
            guard connection >= 0, Self.writeAll(hello, to: connection), Self.read(64 + 30, from: connection) == 94,
                Self.writeAll(Array([[UInt8]](repeating: ping, count: pings).joined()), to: connection)
            else { return }
            let wait = Date().addingTimeInterval(20)
            while !state.mayRead.withLock({ $0 }) && Date() < wait { usleep(1_000) }
            let received = Self.read(pings * pongBytes, from: connection) / pongBytes
            state.pongsRead.withLock { $0 = received }
        }
        peer.start()

        let link = ZMTPInstanceLink(
            instance: 0, addresses: [.getRestaurant: address], useCases: [.getRestaurant], timeoutMilliseconds: 5_000, maxMessageBytes: 1 << 20,
            queueLimitBytes: 1 << 20)
        defer { link.close() }
        #expect(!link.connectionLost())
        // The load thread's rounds with nothing to send (read what arrived, write what is
        // queued) until every PING is answered while the peer reads nothing: the last PONGs
        // wait in the link's queue. Then the peer reads, and only flushes can write them.
        let deadline = Date().addingTimeInterval(20)
        while link.pingsAnswered < pings && Date() < deadline {
            try link.receiveArrived { _ in Issue.record("the peer sent no message") }
            link.flush()
            usleep(1_000)
        }
        #expect(link.pingsAnswered == pings)
        state.mayRead.withLock { $0 = true }
        while state.pongsRead.withLock({ $0 }) < 0 && Date() < deadline {
            try link.receiveArrived { _ in Issue.record("the peer sent no message") }
            link.flush()
            usleep(1_000)
        }
        #expect(state.pongsRead.withLock { $0 } == pings, "every PING answered, the last ones by flushes alone")
        #expect(!link.connectionLost())
    }
}

import WireContract
import Foundation
import SeededRandom
import SvcdTestSupport
import Synchronization
import Testing
import WireJSON
import WireTestSupport
import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Garbage with known answers

/// The use cases in the contract's endpoint order, each with a required (or typed) param that
/// an array is the wrong type for, so a request carrying `[1, {"a": null}]` there is refused
/// `invalid_input`.
private let burstUseCases: [(name: UseCaseName, typedField: String)] = UseCaseName.allCases.map { useCase in
    // Every member of the sample params is a string, a number or `items`' array of objects.
    (useCase, SampleRequests.params(useCase, tag: "burst", cancellable: .init(orderId: "o-000001", userId: "u-000001")).objectValue?.first?.key ?? "")
}

/// The reply a garbage message must get: its error code and echoed id (`nil`: null).
private struct ExpectedReply: Sendable, Hashable, CustomStringConvertible {
    let code: String
    let id: String?
    var description: String { "\(code)/\(id ?? "null")" }
}

/// One garbage message: its frames (as a DEALER sends them; a REQ or raw client sends the last
/// frame as the body) and the reply the contract gives it.
private struct GarbageMessage: Sendable {
    let frames: [[UInt8]]
    let expected: ExpectedReply
    /// Whether the message is one body frame after an empty delimiter (what REQ sends).
    var isWellFramed: Bool { frames.count == 2 && frames[0].isEmpty && !frames[1].isEmpty }
}

/// Seeded garbage for one endpoint: bodies that are not JSON, not UTF-8, truncated, too deep,
/// of the wrong version, with wrongly typed params or ids, and frame lists without a delimiter,
/// with several or empty bodies, with routing hops, or over the 1 MiB size limit in total.
private struct GarbageMaker {
    var random: SplitMix64
    let typedField: String
    let tag: String
    var serial = 0

    init(seed: UInt64, typedField: String, tag: String) {
        random = SplitMix64(seed: seed)
        self.typedField = typedField
        self.tag = tag
    }

    /// `count` seeded bytes, eight from each draw: a byte per draw costs seconds per 32 KiB
    /// under ThreadSanitizer with 88 senders sharing two cores.
    mutating func bytes(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count + 8)
        while result.count < count {
            withUnsafeBytes(of: random.next()) { result.append(contentsOf: $0) }
        }
        result.removeLast(result.count - count)
        return result
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// A message with one body; `multipart` allows frame lists a REQ socket cannot send.
    mutating func next(multipart: Bool, allowOversize: Bool = false) -> GarbageMessage {
        serial += 1
        let id = "\(tag)-\(serial)"
        let malformed = ExpectedReply(code: "malformed", id: nil)
        func body(_ text: String) -> [[UInt8]] { [[], Array(text.utf8)] }
        if allowOversize {
            // Each frame under the limit, the message over it.
            return GarbageMessage(frames: [[], [UInt8](repeating: 0x7B, count: 700 * 1024), [UInt8](repeating: 0x7D, count: 700 * 1024)], expected: malformed)
        }
        switch multipart ? int(0...14) : int(0...9) {
        case 0:
            // Leading 0xFF: never UTF-8, so never JSON.
            return GarbageMessage(frames: [[], [0xFF] + bytes(int(0...4000))], expected: malformed)
        case 1:
            let broken = Array(#"{"v":1,"id":"\#(id)","params":{"\#(typedField)":"x"#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
            return GarbageMessage(frames: [[], broken], expected: malformed)
        case 2:
            return GarbageMessage(frames: body(#"{"v":2,"id":"\#(id)"}"#), expected: ExpectedReply(code: "unsupported_version", id: id))
        case 3:
            return GarbageMessage(frames: body(#"{"v":1,"id":"\#(id)","params":"not an object"}"#), expected: ExpectedReply(code: "malformed", id: id))
        case 4:
            return GarbageMessage(frames: body(#"{"v":1,"id":"\#(id)","params":{"\#(typedField)":[1,{"a":null}]}}"#), expected: ExpectedReply(code: "invalid_input", id: id))
        case 5:
            let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
            return GarbageMessage(frames: body(#"{"v":1,"id":"\#(id)","params":{"x":\#(deep)}}"#), expected: malformed)
        case 6:
            return GarbageMessage(frames: body(#"{"v":"1","id":"\#(id)","params":{}}"#), expected: ExpectedReply(code: "malformed", id: id))
        case 7:
            let whole = Array(#"{"v":1,"id":"\#(id)","params":{"\#(typedField)":"value"}}"#.utf8)
            return GarbageMessage(frames: [[], Array(whole.prefix(int(1...(whole.count - 1))))], expected: malformed)
        case 8:
            return GarbageMessage(frames: body(#"{"v":1,"id":"\#(id)","deadlineMs":-5}"#), expected: ExpectedReply(code: "malformed", id: id))
        case 9:
            return GarbageMessage(frames: body(#"{"v":1,"id":"\#(String(repeating: "i", count: 129))"}"#), expected: malformed)
        case 10:
            // No empty delimiter at all.
            return GarbageMessage(frames: (0..<int(1...4)).map { _ in [0x01] + bytes(int(0...300)) }, expected: malformed)
        case 11:
            return GarbageMessage(frames: [[], Array(#"{"v":1,"id":"\#(id)"}"#.utf8), bytes(int(1...100))], expected: malformed)
        case 12:
            return GarbageMessage(frames: int(0...1) == 0 ? [[]] : [[], []], expected: malformed)
        case 13:
            // Routing hops before the delimiter: still one body, answered through the hops.
            return GarbageMessage(frames: [[0x02] + bytes(int(0...40)), [], Array(#"{"v":1,"id":"\#(id)","params":{"\#(typedField)":[1]}}"#.utf8)], expected: ExpectedReply(code: "invalid_input", id: id))
        default:
            return GarbageMessage(frames: [[], [0x00, 0x00, 0x00] + bytes(int(0...50))], expected: malformed)
        }
    }
}

/// A request each use case answers ok on the sample data set, after any amount of garbage.
private func validRequest(_ useCase: UseCaseName, cancellable: SampleRequests.PlacedOrder) -> [UInt8] {
    request(id: "after-burst", params: SampleRequests.params(useCase, tag: "burst", cancellable: cancellable))
}

// MARK: - Raw TCP and hand-written ZMTP

/// A plain TCP connection (Glibc sockets) for bytes no ZeroMQ socket would send.
private final class RawConnection {
    let descriptor: Int32

    /// Connects to `address` (`tcp://127.0.0.1:port`).
    init(_ address: String) throws {
        let parts = address.split(separator: ":")
        guard parts.count == 3, let port = UInt16(parts[2]) else { throw ChildFailure("not a tcp address: \(address)") }
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ChildFailure("socket() failed: errno \(errno)") }
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_port = port.bigEndian
        peer.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &peer) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            Glibc.close(descriptor)
            throw ChildFailure("connect to \(address) failed: errno \(error)")
        }
    }

    /// Writes all of `bytes`; false once the peer has gone.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Exactly `count` bytes, or `nil` when the peer closes or `deadline` passes first.
    func read(_ count: Int, before deadline: ContinuousClock.Instant) -> [UInt8]? {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(count, 1))
        while result.count < count {
            guard waitReadable(before: deadline) else { return nil }
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count - result.count, 0) }
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else { return nil }
            result += chunk[0..<received]
        }
        return result
    }

    /// Whether the peer closes the connection (end of stream or reset) before `deadline`;
    /// whatever it sends until then is read and dropped.
    func peerCloses(before deadline: ContinuousClock.Instant) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while waitReadable(before: deadline) {
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received < 0 && errno == EINTR { continue }
            if received <= 0 { return true }
        }
        return false
    }

    private func waitReadable(before deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready > 0 { return true }
            if ready < 0 { return false }
        }
    }

    /// Closes; with `reset`, by an RST instead of an orderly FIN (SO_LINGER 0).
    func close(reset: Bool = false) {
        if reset {
            var option = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        Glibc.close(descriptor)
    }
}

/// ZMTP 3.0 (RFC 23) framing, written by hand so the wire can be damaged at any point.
private enum ZMTP {
    /// A 64-byte greeting: signature, version, mechanism, as-server, filler.
    static func greeting(major: UInt8 = 3, minor: UInt8 = 0, mechanism: String = "NULL", asServer: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0x7F, major, minor]
        var name = Array(mechanism.utf8.prefix(20))
        name += [UInt8](repeating: 0, count: 20 - name.count)
        bytes += name
        bytes.append(asServer)
        bytes += [UInt8](repeating: 0, count: 31)
        return bytes
    }

    /// A frame: flags (MORE 1, LONG 2, COMMAND 4) and a 1- or 8-byte size.
    static func frame(_ body: [UInt8], more: Bool = false, command: Bool = false) -> [UInt8] {
        var flags: UInt8 = (more ? 1 : 0) | (command ? 4 : 0)
        if body.count > 255 {
            flags |= 2
            return [flags] + withUnsafeBytes(of: UInt64(body.count).bigEndian, Array.init) + body
        }
        return [flags, UInt8(body.count)] + body
    }

    /// A READY command with one `Socket-Type` property.
    static func ready(socketType: String) -> [UInt8] {
        let name = Array("Socket-Type".utf8)
        let value = Array(socketType.utf8)
        let body = [5] + Array("READY".utf8) + [UInt8(name.count)] + name + withUnsafeBytes(of: UInt32(value.count).bigEndian, Array.init) + value
        return frame(body, command: true)
    }

    /// Reads one frame: its flags and body; `nil` on close or timeout.
    static func readFrame(_ connection: RawConnection, before deadline: ContinuousClock.Instant) -> (flags: UInt8, body: [UInt8])? {
        guard let flags = connection.read(1, before: deadline)?.first else { return nil }
        let size: Int
        if flags & 2 != 0 {
            guard let bytes = connection.read(8, before: deadline) else { return nil }
            let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard value <= 16 << 20 else { return nil }
            size = Int(value)
        } else {
            guard let byte = connection.read(1, before: deadline)?.first else { return nil }
            size = Int(byte)
        }
        guard let body = connection.read(size, before: deadline) else { return nil }
        return (flags, body)
    }

    /// Greeting and READY as a DEALER; returns whether the ROUTER completed the handshake.
    static func handshake(_ connection: RawConnection, before deadline: ContinuousClock.Instant) -> Bool {
        guard connection.write(greeting()), connection.read(64, before: deadline) != nil, connection.write(ready(socketType: "DEALER")) else { return false }
        guard let command = readFrame(connection, before: deadline), command.flags & 4 != 0 else { return false }
        return command.body.starts(with: [5] + Array("READY".utf8))
    }

    /// The next message's frames, answering heartbeats (PING → PONG) on the way.
    static func readMessage(_ connection: RawConnection, before deadline: ContinuousClock.Instant) -> [[UInt8]]? {
        var frames: [[UInt8]] = []
        while let frame = readFrame(connection, before: deadline) {
            if frame.flags & 4 != 0 {
                let ping = [4] + Array("PING".utf8)
                if frame.body.starts(with: ping), frame.body.count >= 7 {
                    connection.write(ZMTP.frame([4] + Array("PONG".utf8) + frame.body[7...], command: true))
                }
                continue
            }
            frames.append(frame.body)
            if frame.flags & 1 == 0 { return frames }
        }
        return nil
    }
}

// MARK: - The burst

/// What one kind of garbage sender does.
private enum GarbageKind: Int, CaseIterable, Sendable {
    /// A DEALER pipelining 120 garbage frame lists (one over 1 MiB in total), then reading
    /// every reply.
    case dealer
    /// A DEALER that gets replies to some garbage and to messages of 50,000 frames, then sends
    /// one frame over 1 MiB (libzmq drops the connection); and a DEALER that sends a request and
    /// leaves before the reply.
    case oversize
    /// A REQ socket sending 60 garbage bodies one by one.
    case req
    /// 24 raw TCP connections sending random bytes, closed normally or by reset.
    case randomBytes
    /// Raw TCP: truncated and bogus ZMTP greetings, a wrong socket type, a frame declared far
    /// over the size limit, ZMTP 1.0 noise.
    case bogusZMTP
    /// Raw TCP completing the ZMTP handshake as a DEALER by hand, then sending garbage messages
    /// and reading their replies (40).
    case handWrittenDealer
    /// Connections opened and dropped at once, raw and ZeroMQ.
    case connectAndDrop
}

/// What a sender saw.
private struct SenderReport: Sendable {
    var kind: GarbageKind
    var useCase: String
    /// Garbage messages sent that the contract answers, and the replies they got.
    var answerable = 0
    var answered = 0
    /// Other garbage: raw connections, oversize frames, dropped peers.
    var unanswerable = 0
    var bytesSent = 0
    /// From the start signal to the sender's end.
    var elapsed: Duration = .zero
    var problems: [String] = []
}

/// How many senders the burst runs, each on its own thread.
private let senderCount = 88

/// All senders start together.
private final class StartGate: Sendable {
    private let parties: Int
    private let arrived = Mutex(0)
    private let condition = NSCondition()

    init(parties: Int) { self.parties = parties }

    /// Arrives and waits (up to `seconds`) for every other party.
    func arriveAndWait(seconds: Double = 20) {
        arrived.withLock { $0 += 1 }
        condition.lock()
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while arrived.withLock({ $0 }) < parties, condition.wait(until: deadline) {}
        condition.unlock()
    }
}

/// One sender on its own thread.
private struct GarbageSender: Sendable {
    let index: Int
    let kind: GarbageKind
    let useCase: String
    let typedField: String
    let address: String

    func run(_ gate: StartGate) throws -> SenderReport {
        var report = SenderReport(kind: kind, useCase: useCase)
        var maker = GarbageMaker(seed: 0xB0A5_7000 + UInt64(index), typedField: typedField, tag: "g\(index)")
        gate.arriveAndWait()
        let started = ContinuousClock.now
        try send(&maker, report: &report, deadline: started.advanced(by: .seconds(30)))
        report.elapsed = started.duration(to: .now)
        return report
    }

    private func send(_ maker: inout GarbageMaker, report: inout SenderReport, deadline: ContinuousClock.Instant) throws {
        switch kind {
        case .dealer:
            let messages = (0..<120).map { maker.next(multipart: true, allowOversize: $0 == 7) }
            try pipeline(messages, report: &report)
        case .oversize:
            // Frame counts rather than sizes: 50,000 empty body frames; 50,000 routing hops
            // before one body (answered through all of them). From half of these senders only:
            // under ThreadSanitizer each flood costs svcd seconds, and seven at once still prove
            // that floods neither stall nor starve the other endpoints.
            let floods = index < senderCount / 2
            let manyFrames = GarbageMessage(frames: [[]] + [[UInt8]](repeating: [], count: 50_000), expected: ExpectedReply(code: "malformed", id: nil))
            let manyHops = GarbageMessage(
                frames: [[UInt8]](repeating: [0x68], count: 50_000) + [[], Array(#"{"v":1,"id":"hops-\#(index)","params":{"\#(typedField)":[1]}}"#.utf8)],
                expected: ExpectedReply(code: "invalid_input", id: "hops-\(index)")
            )
            try pipeline((0..<5).map { _ in maker.next(multipart: true) } + (floods ? [manyFrames, manyHops] : []), report: &report)
            // Linger, so closing sends what is queued (bounded: 2 s).
            let client = try WireClient(.dealer, connectTo: address, receiveTimeout: 100)
            try client.socket.setLinger(2000)
            try client.send(frames: [[], [UInt8](repeating: 0x20, count: 3 << 19)])
            client.close()
            let leaver = try WireClient(.dealer, connectTo: address, receiveTimeout: 100)
            try leaver.socket.setLinger(2000)
            // Its reply goes to nobody, so CancelOrder may cancel nothing (a sample order is answered
            // business_rule): any reply will do.
            try leaver.send(body: validRequest(UseCaseName(rawValue: useCase) ?? .getRestaurant, cancellable: .init(orderId: "o-000001", userId: "u-000001")))
            leaver.close()
            report.unanswerable += 2
            report.bytesSent += 3 << 19
        case .req:
            let client = try WireClient(.req, connectTo: address, receiveTimeout: 15_000)
            defer { client.close() }
            for _ in 0..<60 {
                let message = maker.next(multipart: false)
                try client.send(body: message.frames[1])
                check(try client.receiveReply(), for: message, report: &report)
            }
        case .randomBytes:
            for round in 0..<24 {
                let connection = try RawConnection(address)
                let noise = (round % 2 == 0 ? [0xFF] : []) + maker.bytes(maker.int(1...32 * 1024))
                connection.write(noise)
                report.bytesSent += noise.count
                report.unanswerable += 1
                connection.close(reset: round % 3 == 0)
            }
        case .bogusZMTP:
            try bogusGreetings(&maker, report: &report, deadline: deadline)
        case .handWrittenDealer:
            let connection = try RawConnection(address)
            defer { connection.close() }
            guard ZMTP.handshake(connection, before: deadline) else {
                report.problems.append("the hand-written ZMTP handshake as a DEALER did not complete")
                return
            }
            for _ in 0..<40 {
                let message = maker.next(multipart: false)
                let wire = ZMTP.frame([], more: true) + ZMTP.frame(message.frames[1])
                connection.write(wire)
                report.bytesSent += wire.count
                check(ZMTP.readMessage(connection, before: deadline).map(Reply.init(frames:)), for: message, report: &report)
            }
        case .connectAndDrop:
            for round in 0..<20 {
                try RawConnection(address).close(reset: round % 2 == 0)
                report.unanswerable += 1
            }
            for _ in 0..<5 {
                connectedClient(.dealer, address)?.close()
                report.unanswerable += 1
            }
        }
    }

    /// Sends every message on one DEALER at once, then reads one reply per message (in any
    /// order) and compares the replies, as a multiset of code and id, with the expected ones.
    private func pipeline(_ messages: [GarbageMessage], report: inout SenderReport) throws {
        let client = try WireClient(.dealer, connectTo: address, receiveTimeout: 15_000)
        defer { client.close() }
        for message in messages {
            try client.send(frames: message.frames)
            report.bytesSent += message.frames.map(\.count).reduce(0, +)
        }
        report.answerable += messages.count
        var expected: [ExpectedReply: Int] = [:]
        for message in messages { expected[message.expected, default: 0] += 1 }
        var received: [ExpectedReply: Int] = [:]
        for _ in messages {
            guard let frames = try client.receiveFrames() else {
                report.problems.append("\(useCase): \(messages.count - report.answered) pipelined garbage messages got no reply within 15 s")
                break
            }
            report.answered += 1
            let reply = Reply(frames: frames)
            if let problem = contractProblem(reply) { report.problems.append("\(useCase): \(problem)") }
            received[ExpectedReply(code: reply.code ?? "none", id: reply.id?.stringValue), default: 0] += 1
        }
        let differing = Set(expected.keys).union(received.keys).filter { expected[$0] != received[$0] }
        for reply in differing.sorted(by: { $0.description < $1.description }).prefix(5) {
            report.problems.append("\(useCase): \(received[reply] ?? 0) replies \(reply), expected \(expected[reply] ?? 0)")
        }
    }

    private func check(_ reply: Reply?, for message: GarbageMessage, report: inout SenderReport) {
        report.answerable += 1
        report.bytesSent += message.frames.last?.count ?? 0
        guard let reply else {
            report.problems.append("\(useCase) \(kind): no reply to \(String(decoding: message.frames.last?.prefix(80) ?? [], as: UTF8.self))")
            return
        }
        report.answered += 1
        if let problem = contractProblem(reply) {
            report.problems.append("\(useCase) \(kind): \(problem)")
        } else if reply.code != message.expected.code || reply.id?.stringValue != message.expected.id {
            report.problems.append("\(useCase) \(kind): expected \(message.expected), got \(reply)")
        }
    }

    /// Bad greetings and frames on raw connections; the service must close a connection whose
    /// peer declares a frame far over the size limit, or offers an incompatible socket type.
    private func bogusGreetings(_ maker: inout GarbageMaker, report: inout SenderReport, deadline: ContinuousClock.Instant) throws {
        let valid = ZMTP.greeting()
        let attempts: [(bytes: [UInt8], mustClose: Bool)] = [
            (Array(valid.prefix(maker.int(1...9))), false),
            (Array(valid.prefix(maker.int(10...63))), false),
            (ZMTP.greeting(major: 0x7F), false),
            (ZMTP.greeting(mechanism: "NOPE"), false),
            (ZMTP.greeting(mechanism: "CURVE"), false),
            (ZMTP.greeting(asServer: 1) + maker.bytes(200), false),
            ([0x01, 0x00] + maker.bytes(100), false),
            ([0xFF] + maker.bytes(9) + [0x01, 0x01] + maker.bytes(60), false),
            (valid + ZMTP.ready(socketType: "PUB"), true),
            (valid + ZMTP.ready(socketType: "DEALER") + [0x02] + withUnsafeBytes(of: UInt64(1 << 62).bigEndian, Array.init) + maker.bytes(64), true),
            (valid + ZMTP.frame([7] + Array("GARBAGE".utf8), command: true), false),
        ]
        for (index, attempt) in attempts.enumerated() {
            let connection = try RawConnection(address)
            connection.write(attempt.bytes)
            report.bytesSent += attempt.bytes.count
            report.unanswerable += 1
            if attempt.mustClose && !connection.peerCloses(before: deadline) {
                report.problems.append("\(useCase): the service kept open a connection after bogus ZMTP attempt \(index)")
            }
            connection.close(reset: index % 2 == 0)
        }
    }
}

/// A socket connected (and then closed by the caller) or `nil`, for connect-and-drop.
private func connectedClient(_ type: ZMQSocketType, _ address: String) -> WireClient? {
    try? WireClient(type, connectTo: address, receiveTimeout: 10)
}

/// What is wrong with a reply to garbage, if anything: it must be a v1 failure envelope with a
/// contract code other than `internal`.
private func contractProblem(_ reply: Reply) -> String? {
    guard reply.json != nil, reply.version == 1 else { return "not a reply envelope: \(reply)" }
    guard reply.ok == false, let code = reply.code else { return "garbage was not refused: \(reply)" }
    guard contractErrorCodes.contains(code), code != "internal" else { return "code \(code) is not a contract error for bad input: \(reply)" }
    guard !(reply.message ?? "").isEmpty else { return "error without a message: \(reply)" }
    return nil
}

extension StressSuite {
    /// A burst of garbage from many sockets at once against a real `svcd --seed-sample`: ZeroMQ
    /// DEALER and REQ sockets and raw TCP connections, each on its own thread, across all 22
    /// use-case endpoints. Every well-framed piece of garbage gets the contract's error, svcd keeps
    /// running, logs no internal failure, and every endpoint then answers a valid request with ok.
    @Suite(.timeLimit(.minutes(2)))
    struct GarbageBurstTests {
        @Test func garbageFromManySocketsAtOnceLeavesEveryEndpointAnswering() async throws {
            try await withSvcd(seed: true) { child in
                let endpoints = try await child.endpoints()
                #expect(endpoints.useCases.count == burstUseCases.count)
                let cancellable = try await SampleRequests.placeCancellableOrder(placeOrderAddress: try endpoints.address(.placeOrder))
                let senders = try (0..<senderCount).map { index in
                    let useCase = burstUseCases[index % burstUseCases.count]
                    // 88 = 4 × 22 senders; with 7 kinds, each endpoint gets 4 different kinds.
                    return GarbageSender(
                        index: index, kind: GarbageKind.allCases[index % GarbageKind.allCases.count], useCase: useCase.name.rawValue,
                        typedField: useCase.typedField, address: try endpoints.address(useCase.name)
                    )
                }
                let gate = StartGate(parties: senders.count)
                let clock = ContinuousClock()
                let started = clock.now
                let reports = try await withThrowingTaskGroup(of: SenderReport.self) { group in
                    for sender in senders {
                        group.addTask { try await onThread { try sender.run(gate) } }
                    }
                    return try await group.reduce(into: [SenderReport]()) { $0.append($1) }
                }
                let burst = clock.now - started

                #expect(child.isRunning, "svcd is gone after the garbage burst; stderr:\n\(child.stderrText.suffix(2000))")
                let problems = reports.flatMap(\.problems)
                #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(5))")
                let answerable = reports.map(\.answerable).reduce(0, +)
                let answered = reports.map(\.answered).reduce(0, +)
                #expect(answered == answerable, "\(answered) of \(answerable) well-framed garbage messages answered")
                for kind in GarbageKind.allCases {
                    #expect(reports.contains { $0.kind == kind }, "no sender of kind \(kind)")
                }

                // Afterwards every endpoint serves a valid request.
                for useCase in burstUseCases {
                    let reply = try await call(try endpoints.address(useCase.name), validRequest(useCase.name, cancellable: cancellable), receiveTimeout: 15_000)
                    #expect(reply.ok == true && reply.id == "after-burst", "\(useCase.name) after the burst: \(reply)")
                }
                #expect(child.isRunning)
                let log = child.stderrText
                #expect(!log.contains("use case failed") && !log.contains("Fatal error"), "svcd logged an internal failure:\n\(log.suffix(2000))")

                let raw = reports.map(\.unanswerable).reduce(0, +)
                let bytes = reports.map(\.bytesSent).reduce(0, +)
                let slowest = GarbageKind.allCases.map { kind in "\(kind) \(reports.filter { $0.kind == kind }.map(\.elapsed).max() ?? .zero)" }
                print("GarbageBurst: slowest sender by kind: \(slowest.joined(separator: ", "))")
                print("GarbageBurst: \(senders.count) senders on their own threads over \(UseCaseName.allCases.count) endpoints in \(burst): \(answerable) answerable garbage messages (all answered with contract errors), \(raw) raw connections, oversize frames and dropped peers, \(bytes) bytes in all")
            }
        }
    }
}

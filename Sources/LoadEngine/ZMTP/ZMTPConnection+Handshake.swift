#if canImport(Glibc)
import Glibc
#endif

extension ZMTPConnection {
    /// This side's greeting: the signature, version 3.1, the NULL mechanism, not a server.
    static let greeting: [UInt8] = {
        var bytes: [UInt8] = [0xFF, 0, 0, 0, 0, 0, 0, 0, 1, 0x7F, 3, 1]
        bytes += Array("NULL".utf8) + [UInt8](repeating: 0, count: 16)
        bytes += [UInt8](repeating: 0, count: 1 + 31)
        return bytes
    }()

    /// The body of a command named `name` with no data yet: the name's length, then the name.
    static func commandBody(_ name: String) -> [UInt8] {
        [UInt8(name.utf8.count)] + Array(name.utf8)
    }

    /// Appends one frame: flags, size (1 byte, or 8 for a body over 255 bytes), body.
    static func appendFrame(_ body: [UInt8], more: Bool = false, command: Bool = false, to out: inout [UInt8]) {
        appendFrameHeader(size: body.count, more: more, command: command, to: &out)
        out.append(contentsOf: body)
    }

    /// Appends the flags and size of a frame whose `size` bytes of body come next.
    static func appendFrameHeader(size: Int, more: Bool = false, command: Bool = false, to out: inout [UInt8]) {
        var flags: UInt8 = (more ? 0x01 : 0) | (command ? 0x04 : 0)
        if size > 255 {
            flags |= 0x02
            out.append(flags)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(size) >> UInt64(shift))) }
        } else {
            out.append(flags)
            out.append(UInt8(size))
        }
    }

    /// The reason an `ERROR` command gives (a 1-byte length, then the text).
    static func errorReason(_ body: [UInt8]) -> String {
        let reasonStart = 1 + "ERROR".utf8.count
        guard body.count > reasonStart else { return "(no reason)" }
        return String(decoding: body[(reasonStart + 1)...].prefix(Int(body[reasonStart])), as: UTF8.self)
    }

    /// `strerror` of `code` (by default the current `errno`).
    static func errorText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// A connected blocking TCP socket with `TCP_NODELAY` whose sends and receives give up after
    /// `timeoutMilliseconds` (a blocking `connect` too, on Linux).
    static func connect(to address: ZMTPAddress, timeoutMilliseconds: Int) throws(ZMTPFailure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard status == 0, let first = found else {
            throw ZMTPFailure("cannot resolve \(address.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var timeout = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        var noDelay: Int32 = 1
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else {
                lastError = errno
                continue
            }
            let timeoutSize = socklen_t(MemoryLayout<timeval>.size)
            if setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, timeoutSize) == 0,
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, timeoutSize) == 0,
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size)) == 0,
                Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0
            {
                return descriptor
            }
            lastError = errno
            _ = Glibc.close(descriptor)
        }
        throw ZMTPFailure("cannot connect to tcp://\(address.host):\(address.port): \(errorText(lastError))")
    }

    /// Exchanges greetings and `READY` commands on the still-blocking socket. Like libzmq, it
    /// sends the signature and major version first, which makes the peer send its whole greeting,
    /// so a mechanism this side does not speak is named before the peer drops the connection.
    func handshake(socketType: String) throws(ZMTPFailure) {
        let versionEnd = 11
        try writeAll(Array(Self.greeting[..<versionEnd]))

        var greeting: [UInt8]?
        while greeting == nil {
            try readSome()
            greeting = takeGreeting()
        }
        guard let greeting, greeting[0] == 0xFF, greeting[9] & 0x01 == 0x01 else {
            throw ZMTPFailure("the peer does not speak ZMTP 3")
        }
        guard greeting[10] >= 3 else { throw ZMTPFailure("the peer speaks ZMTP \(greeting[10]).\(greeting[11]), not 3") }
        let mechanism = String(decoding: greeting[12..<32].prefix { $0 != 0 }, as: UTF8.self)
        guard mechanism == "NULL" else {
            throw ZMTPFailure("the endpoint asks for the \(mechanism) mechanism; this connection speaks only NULL (use libzmq for CURVE)")
        }
        var rest = Array(Self.greeting[versionEnd...])
        var ready = Self.commandBody("READY")
        ready += Self.commandBody("Socket-Type")
        let type = Array(socketType.utf8)
        ready += [0, 0, 0, UInt8(type.count)] + type
        Self.appendFrame(ready, command: true, to: &rest)
        try writeAll(rest)
        while true {
            if let input = try nextInput() {
                switch input.commandName {
                case "READY": return
                case "ERROR": throw ZMTPFailure("the peer refused the connection: \(Self.errorReason(input.commandBody))")
                default: throw ZMTPFailure("the peer sent something other than READY to begin")
                }
            }
            try readSome()
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws(ZMTPFailure) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                offset += count
            } else if errno != EINTR {
                throw ZMTPFailure("the handshake failed while sending: \(Self.errorText())")
            }
        }
    }
}

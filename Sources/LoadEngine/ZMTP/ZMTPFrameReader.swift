/// Splits the bytes a ZMTP 3 peer sends into the greeting, then messages and commands, however the
/// bytes arrive (a frame cut across reads waits for the rest). Frames: a flags byte (bit 0: more
/// frames follow; bit 1: an 8-byte size; bit 2: a command), the size (1 or 8 bytes, big-endian),
/// the body. A message or command larger than `maxMessageBytes` is a failure, so a peer cannot
/// make the reader hold unbounded memory.
struct ZMTPFrameReader {
    /// The greeting's size in ZMTP 3.
    static let greetingSize = 64

    private var buffer: [UInt8] = []
    /// Where the unread bytes start in `buffer`.
    private var start = 0
    /// Where in `buffer` the frames so far of a message whose last frame has not come yet are
    /// (kept there, not copied, until the message is whole).
    private var parts: [Range<Int>] = []
    private var partsBytes = 0
    let maxMessageBytes: Int

    init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Bytes read but not yet taken.
    var unreadCount: Int { buffer.count - start }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // What comes before the unfinished message's frames, or before the unread bytes, has been
        // taken.
        let taken = parts.first?.lowerBound ?? start
        if taken > 0, taken == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            parts = parts.map { _ in 0..<0 }
        } else if taken >= 65_536, taken * 2 >= buffer.count {
            buffer.removeSubrange(0..<taken)
            start -= taken
            parts = parts.map { ($0.lowerBound - taken)..<($0.upperBound - taken) }
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The peer's greeting once all of it has come, `nil` before.
    mutating func takeGreeting() -> [UInt8]? {
        guard unreadCount >= Self.greetingSize else { return nil }
        defer { start += Self.greetingSize }
        return Array(buffer[start..<start + Self.greetingSize])
    }

    /// The next whole message or command, `nil` when its bytes have not all come yet.
    mutating func next() throws(ZMTPFailure) -> ZMTPInput? {
        var frames: [[UInt8]] = []
        switch try take(message: { frames = $0.copied }) {
        case .incomplete: return nil
        case .message: return .message(frames)
        case .command(let body): return .command(body)
        }
    }

    /// What ``take(message:)`` found.
    enum Taken {
        /// Not a whole message or command yet.
        case incomplete
        /// A message, lent to the closure.
        case message
        /// A command and its body.
        case command([UInt8])
    }

    /// Takes the next whole message or command: a message's frames are lent to `message` as
    /// views into the buffer (no copy), a command is returned.
    mutating func take(message: (ZMTPFrames) -> Void) throws(ZMTPFailure) -> Taken {
        while true {
            guard unreadCount >= 2 else { return .incomplete }
            let flags = buffer[start]
            guard flags & 0xF8 == 0 else { throw ZMTPFailure("a frame with unknown flags \(flags)") }
            let headerSize: Int
            var size: UInt64 = 0
            if flags & 0x02 != 0 {
                guard unreadCount >= 9 else { return .incomplete }
                for offset in 1...8 { size = size << 8 | UInt64(buffer[start + offset]) }
                headerSize = 9
            } else {
                size = UInt64(buffer[start + 1])
                headerSize = 2
            }
            guard size <= UInt64(maxMessageBytes - partsBytes) else {
                throw ZMTPFailure("a message of more than \(maxMessageBytes) bytes")
            }
            let bodySize = Int(size)
            guard unreadCount >= headerSize + bodySize else { return .incomplete }
            let body = (start + headerSize)..<(start + headerSize + bodySize)
            start += headerSize + bodySize
            if flags & 0x04 != 0 {
                guard flags & 0x01 == 0, parts.isEmpty else { throw ZMTPFailure("a command inside a message") }
                return .command(Array(buffer[body]))
            }
            parts.append(body)
            partsBytes += bodySize
            if flags & 0x01 == 0 {
                buffer.withUnsafeBytes { message(ZMTPFrames(buffer: $0, ranges: parts)) }
                parts.removeAll(keepingCapacity: true)
                partsBytes = 0
                return .message
            }
        }
    }
}

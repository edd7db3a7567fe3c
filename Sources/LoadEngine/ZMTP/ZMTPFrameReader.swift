#if canImport(Glibc)
import Glibc
#endif

/// Splits the bytes a ZMTP 3 peer sends into the greeting, then messages and commands, however the
/// bytes arrive (a frame cut across reads waits for the rest). Frames: a flags byte (bit 0: more
/// frames follow; bit 1: an 8-byte size; bit 2: a command), the size (1 or 8 bytes, big-endian),
/// the body. A message or command larger than `maxMessageBytes` is a failure, so a peer cannot
/// make the reader hold unbounded memory.
///
/// The bytes are read straight into the reader's buffer (``receive(atMost:_:)``), and messages
/// are lent from it (``take(message:)``): nothing is copied on the way.
struct ZMTPFrameReader: ~Copyable {
    /// The greeting's size in ZMTP 3.
    static let greetingSize = 64

    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes held in `storage`.
    private var count = 0
    /// Where the unread bytes start in `storage`.
    private var start = 0
    /// Where in `storage` the frames so far of a message whose last frame has not come yet are
    /// (kept there, not copied, until the message is whole).
    private var parts: [Range<Int>] = []
    private var partsBytes = 0
    let maxMessageBytes: Int

    init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
        capacity = 131_072
        storage = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit {
        storage.deallocate()
    }

    /// Bytes read but not yet taken.
    var unreadCount: Int { count - start }

    /// Makes room for `extra` more bytes at the end: what was taken goes first, then the buffer
    /// grows if it must.
    private mutating func makeRoom(for extra: Int) {
        // What comes before the unfinished message's frames, or before the unread bytes, has been
        // taken.
        let taken = parts.first?.lowerBound ?? start
        if taken > 0, taken == count || capacity - count < extra {
            memmove(storage, storage + taken, count - taken)
            count -= taken
            start -= taken
            for index in parts.indices { parts[index] = (parts[index].lowerBound - taken)..<(parts[index].upperBound - taken) }
        }
        guard capacity - count < extra else { return }
        let grown = max(capacity * 2, count + extra)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        larger.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = larger
        capacity = grown
    }

    /// Lets `read` write up to `maxBytes` at the end of the buffer (it returns how many it wrote,
    /// or 0 or less for none) and returns what it returned.
    mutating func receive(atMost maxBytes: Int, _ read: (UnsafeMutableRawPointer, Int) -> Int) -> Int {
        makeRoom(for: maxBytes)
        let received = read(storage + count, maxBytes)
        if received > 0 { count += received }
        return received
    }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = receive(atMost: bytes.count) { end, _ in
            end.copyMemory(from: base, byteCount: bytes.count)
            return bytes.count
        }
    }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    private func byte(at offset: Int) -> UInt8 {
        storage.load(fromByteOffset: offset, as: UInt8.self)
    }

    private func bytes(_ range: Range<Int>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: storage + range.lowerBound, count: range.count))
    }

    /// The peer's greeting once all of it has come, `nil` before.
    mutating func takeGreeting() -> [UInt8]? {
        guard unreadCount >= Self.greetingSize else { return nil }
        defer { start += Self.greetingSize }
        return bytes(start..<start + Self.greetingSize)
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
            let flags = byte(at: start)
            guard flags & 0xF8 == 0 else { throw ZMTPFailure("a frame with unknown flags \(flags)") }
            let headerSize: Int
            var size: UInt64 = 0
            if flags & 0x02 != 0 {
                guard unreadCount >= 9 else { return .incomplete }
                for offset in 1...8 { size = size << 8 | UInt64(byte(at: start + offset)) }
                headerSize = 9
            } else {
                size = UInt64(byte(at: start + 1))
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
                return .command(bytes(body))
            }
            parts.append(body)
            partsBytes += bodySize
            if flags & 0x01 == 0 {
                message(ZMTPFrames(buffer: UnsafeRawBufferPointer(start: storage, count: count), ranges: parts))
                parts.removeAll(keepingCapacity: true)
                partsBytes = 0
                return .message
            }
        }
    }
}

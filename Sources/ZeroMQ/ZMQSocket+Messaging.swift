internal import CZeroMQ

/// One received frame of a (possibly multipart) message.
public struct ZMQFrame: Sendable, Hashable {
    /// The frame's bytes.
    public var bytes: [UInt8]
    /// Whether more frames of the same message follow (`zmq_msg_more`).
    public var more: Bool

    /// Creates a frame.
    public init(bytes: [UInt8], more: Bool) {
        self.bytes = bytes
        self.more = more
    }
}

/// Size facts about one received multipart message, so callers can enforce limits
/// beyond `ZMQ_MAXMSGSIZE` (which libzmq checks per frame).
public struct ZMQMessageInfo: Sendable, Hashable {
    /// Number of frames the message had on the wire (all were consumed from the socket).
    public var frameCount: Int
    /// Sum of all frame sizes in bytes, including frames that were not stored.
    public var totalBytes: Int
    /// `true` when the message exceeded `maxTotalBytes`: only the leading frames that fit
    /// were stored (for a ROUTER this keeps the routing-id envelope so the caller can reply
    /// with an error), the rest were received and discarded without copying.
    public var exceededLimit: Bool

    /// Creates a message summary.
    public init(frameCount: Int, totalBytes: Int, exceededLimit: Bool) {
        self.frameCount = frameCount
        self.totalBytes = totalBytes
        self.exceededLimit = exceededLimit
    }
}

extension ZMQSocket {
    // MARK: Sending

    /// Sends one frame (`zmq_send`, which copies the bytes).
    /// - Parameters:
    ///   - frame: the bytes; may be empty.
    ///   - more: `true` if more frames of the same message follow (`ZMQ_SNDMORE`).
    ///   - dontWait: fail with ``ZMQError/again`` instead of blocking when the peer queue is
    ///     full (`ZMQ_DONTWAIT`). A blocking send fails with `.again` after ``sendTimeout``.
    /// - Throws: ``ZMQError/again``, ``ZMQError/hostUnreachable`` (ROUTER with
    ///   ``setRouterMandatory(_:)``), ``ZMQError/wrongState`` (REQ/REP out of turn),
    ///   ``ZMQError/terminated``, ``ZMQError/interrupted``.
    public func send(_ frame: UnsafeRawBufferPointer, more: Bool = false, dontWait: Bool = false) throws(ZMQError) {
        try sendRaw(frame.baseAddress, frame.count, flags: Self.sendFlags(more: more, dontWait: dontWait))
    }

    /// Sends one frame from any byte collection (`[UInt8]`, `ArraySlice<UInt8>`,
    /// `String.UTF8View`, ...). Contiguous collections are sent without an intermediate copy.
    /// See the raw-buffer `send(_:more:dontWait:)` for the parameters.
    public func send<Bytes: Collection>(
        _ frame: Bytes, more: Bool = false, dontWait: Bool = false
    ) throws(ZMQError) where Bytes.Element == UInt8 {
        let flags = Self.sendFlags(more: more, dontWait: dontWait)
        let result = frame.withContiguousStorageIfAvailable { buffer in
            Result { () throws(ZMQError) in
                try sendRaw(UnsafeRawPointer(buffer.baseAddress), buffer.count, flags: flags)
            }
        }
        if let result {
            try result.get()
        } else {
            try send(Array(frame), more: more, dontWait: dontWait)
        }
    }

    /// Sends a multipart message: every frame but the last with `ZMQ_SNDMORE`.
    ///
    /// Messages are atomic: if the first frame is accepted, the remaining frames are too,
    /// so with `dontWait` a full queue fails on the first frame and nothing is sent.
    /// - Throws: ``ZMQError/invalid`` for an empty frame list, otherwise as
    ///   the raw-buffer `send(_:more:dontWait:)`.
    public func sendMultipart<Frames: Collection>(
        _ frames: Frames, dontWait: Bool = false
    ) throws(ZMQError) where Frames.Element: Collection, Frames.Element.Element == UInt8 {
        guard !frames.isEmpty else { throw ZMQError.invalid }
        var remaining = frames.count
        for frame in frames {
            remaining -= 1
            try send(frame, more: remaining > 0, dontWait: dontWait)
        }
    }

    // MARK: Receiving

    /// Receives one frame (`zmq_msg_recv` into the socket's reusable `zmq_msg_t`; the bytes
    /// are copied out with one allocation).
    /// - Parameter dontWait: fail with ``ZMQError/again`` instead of blocking when nothing is
    ///   queued. A blocking receive fails with `.again` after ``receiveTimeout``.
    /// - Throws: ``ZMQError/again``, ``ZMQError/terminated``, ``ZMQError/interrupted``,
    ///   ``ZMQError/wrongState`` (REQ/REP out of turn).
    public func receive(dontWait: Bool = false) throws(ZMQError) -> ZMQFrame {
        let handle = try liveHandle()
        try check(zmq_msg_recv(message, handle, dontWait ? ZMQ_DONTWAIT : 0))
        let frame = ZMQFrame(bytes: copyMessageBytes(), more: zmq_msg_more(message) != 0)
        releaseLargeMessage()
        return frame
    }

    /// Receives all frames of the next message.
    /// - Throws: as ``receive(dontWait:)``; ``ZMQError/again`` when nothing arrived.
    public func receiveMultipart(dontWait: Bool = false) throws(ZMQError) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        guard try receiveMultipart(into: &frames, dontWait: dontWait) != nil else {
            throw ZMQError.again
        }
        return frames
    }

    /// Receives all frames of the next message into a caller-owned, reusable array.
    ///
    /// Hot-path friendly: existing inner arrays are overwritten in place (their capacity is
    /// kept), so a loop that reuses one `frames` array for same-shaped messages does not
    /// allocate. On return `frames.count` is the number of stored frames.
    /// - Parameters:
    ///   - frames: replaced by the message's frames (only the leading ones that fit when the
    ///     message exceeds `maxTotalBytes`; see ``ZMQMessageInfo/exceededLimit``).
    ///   - maxTotalBytes: stop copying frames once the message's total size would exceed this.
    ///     The whole message is always consumed.
    ///   - dontWait: return `nil` instead of blocking when nothing is queued.
    /// - Returns: the message's size facts, or `nil` when no message arrived (`EAGAIN`: either
    ///   `dontWait` and nothing queued, or ``receiveTimeout`` expired).
    /// - Throws: ``ZMQError/terminated``, ``ZMQError/interrupted``, ``ZMQError/wrongState``.
    ///   After a throw, `frames` may be partly overwritten.
    @discardableResult
    public func receiveMultipart(
        into frames: inout [[UInt8]], maxTotalBytes: Int = .max, dontWait: Bool = false
    ) throws(ZMQError) -> ZMQMessageInfo? {
        var unread: String?
        return try receiveMultipart(into: &frames, maxTotalBytes: maxTotalBytes, dontWait: dontWait, readUserId: false, userId: &unread)
    }

    /// As ``receiveMultipart(into:maxTotalBytes:dontWait:)``, also setting `userId` to the
    /// message's `User-Id` property: what the ZAP handler answered for the connection (a CURVE
    /// client's key, for svcd), `nil` when it has none.
    @discardableResult
    public func receiveMultipart(
        into frames: inout [[UInt8]], maxTotalBytes: Int = .max, dontWait: Bool = false, userId: inout String?
    ) throws(ZMQError) -> ZMQMessageInfo? {
        userId = nil
        return try receiveMultipart(into: &frames, maxTotalBytes: maxTotalBytes, dontWait: dontWait, readUserId: true, userId: &userId)
    }

    private func receiveMultipart(
        into frames: inout [[UInt8]], maxTotalBytes: Int, dontWait: Bool, readUserId: Bool, userId: inout String?
    ) throws(ZMQError) -> ZMQMessageInfo? {
        let handle = try liveHandle()
        do throws(ZMQError) {
            try check(zmq_msg_recv(message, handle, dontWait ? ZMQ_DONTWAIT : 0))
        } catch {
            if error == .again { return nil }
            throw error
        }
        var stored = 0
        var frameCount = 0
        var totalBytes = 0
        var exceeded = false
        while true {
            let size = zmq_msg_size(message)
            frameCount += 1
            totalBytes += size
            if !exceeded && totalBytes <= maxTotalBytes {
                let source = UnsafeRawBufferPointer(start: zmq_msg_data(message), count: size)
                if stored < frames.count {
                    frames[stored].removeAll(keepingCapacity: true)
                    frames[stored].append(contentsOf: source)
                } else {
                    frames.append(copyMessageBytes())
                }
                stored += 1
            } else {
                exceeded = true
            }
            let more = zmq_msg_more(message) != 0
            // The frames from the peer carry its connection's properties; a ROUTER's routing-id
            // frame, made locally, carries none.
            if readUserId, userId == nil, let property = zmq_msg_gets(message, "User-Id") {
                userId = String(cString: property)
            }
            releaseLargeMessage()
            guard more else { break }
            // The remaining frames of a message arrive atomically with the first one,
            // so this blocking call never waits.
            try check(zmq_msg_recv(message, handle, 0))
        }
        if frames.count > stored {
            frames.removeSubrange(stored...)
        }
        return ZMQMessageInfo(frameCount: frameCount, totalBytes: totalBytes, exceededLimit: exceeded)
    }

    // MARK: Internals

    private static func sendFlags(more: Bool, dontWait: Bool) -> Int32 {
        (more ? ZMQ_SNDMORE : 0) | (dontWait ? ZMQ_DONTWAIT : 0)
    }

    private func sendRaw(_ bytes: UnsafeRawPointer?, _ count: Int, flags: Int32) throws(ZMQError) {
        try check(zmq_send(try liveHandle(), bytes, count, flags))
    }

    /// Copies the received message's bytes with exactly one allocation (none when empty).
    private func copyMessageBytes() -> [UInt8] {
        let size = zmq_msg_size(message)
        guard size > 0, let data = zmq_msg_data(message) else { return [] }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(start: data, count: size))
            count = size
        }
    }

    /// Frees a large received payload right after it was copied instead of holding it until
    /// the next receive. Small payloads live inside the `zmq_msg_t` and need no release.
    private func releaseLargeMessage() {
        if zmq_msg_size(message) > Self.inlineMessageLimit {
            zmq_msg_close(message)
            zmq_msg_init(message)
        }
    }

    /// libzmq stores payloads up to this size inside the `zmq_msg_t` itself (64-bit builds).
    static let inlineMessageLimit = 33
}

/// A whole message's frames as ``ZMTPFrameReader`` lends them: views into its buffer, valid only
/// during the call they are lent to (copy with ``copied`` to keep them).
struct ZMTPFrames {
    private let buffer: UnsafeRawBufferPointer
    private let ranges: [Range<Int>]

    init(buffer: UnsafeRawBufferPointer, ranges: [Range<Int>]) {
        self.buffer = buffer
        self.ranges = ranges
    }

    /// How many frames the message has.
    var count: Int { ranges.count }

    /// Frame `index`'s bytes.
    subscript(index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[ranges[index]])
    }

    /// The frames, copied.
    var copied: [[UInt8]] { ranges.map { Array(buffer[$0]) } }
}

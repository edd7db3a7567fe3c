/// Eight-bytes-at-a-time scanning for the string hot paths of the parser and the writer.
///
/// Each mask has the high bit set in every byte of a little-endian 64-bit word that needs
/// attention. Borrows of the subtraction tricks only run upwards from a byte that is
/// itself flagged, so the *lowest* flagged byte is always exact; callers only use that
/// one (`trailingZeroBitCount / 8`) and re-check it byte by byte.
enum ByteScanning {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Loads 8 bytes at `pointer` (any alignment) as a little-endian word.
    @inline(__always)
    static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// Bytes that the writer must escape: below 0x20, `"` or `\`.
    @inline(__always)
    static func escapeMask(_ word: UInt64) -> UInt64 {
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteHits = (quote &- ones) & ~quote
        let backslashHits = (backslash &- ones) & ~backslash
        return (control | quoteHits | backslashHits) & highBits
    }

    /// Bytes that end the parser's fast string scan: those of ``escapeMask(_:)`` plus every
    /// non-ASCII byte (which must be validated as UTF-8).
    @inline(__always)
    static func stringStopMask(_ word: UInt64) -> UInt64 {
        escapeMask(word) | (word & highBits)
    }

    /// The index of the lowest flagged byte of a non-zero mask.
    @inline(__always)
    static func firstFlagged(_ mask: UInt64) -> Int {
        mask.trailingZeroBitCount &>> 3
    }
}

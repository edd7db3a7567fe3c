import Domain

/// Random version-4 UUIDs in lower case: unique without coordination between processes.
///
/// Formatted here from the system generator (`getrandom`) rather than with Foundation's `UUID`,
/// which on Linux opens and reads `/dev/urandom` for every id: a measurable cost when every
/// write makes one.
public struct RandomIdentifierGenerator: IdentifierGenerator {
    /// Creates the generator.
    public init() {}

    /// A new random id, e.g. `3f2b8c1e-9a4d-4e7b-8c2f-1a2b3c4d5e6f`.
    public func makeIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // RFC 4122 variant
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var position = 0
        for word in [high, low] {
            for nibble in (0..<16).reversed() {
                if position == 8 || position == 13 || position == 18 || position == 23 { position += 1 }
                bytes[position] = digits[Int((word >> (UInt64(nibble) * 4)) & 0xF)]
                position += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

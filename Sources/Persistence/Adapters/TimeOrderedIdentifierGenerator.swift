import Domain

/// Version-7 UUIDs in lower case (RFC 9562): the creation time in milliseconds, then 74 random
/// bits. Unique without coordination between processes, like random UUIDs, but ids made later
/// sort after earlier ones (to the millisecond).
///
/// The order is what matters to the stores: a new row's id lands at the end of the primary-key
/// index instead of at a random leaf, so a commit of twenty new users dirties (and writes to
/// SQLite's log) one leaf page of that index instead of twenty. On the SQLite store this made
/// durable RegisterUser 25–30 % faster and cut its p99 from tens of milliseconds to a few
/// (Docs/benchmarks/HISTORY.md, "Why the write path is as it is").
///
/// Formatted here from the system generator (`getrandom`) rather than with Foundation's `UUID`,
/// which on Linux opens and reads `/dev/urandom` for every id: a measurable cost when every
/// write makes one.
public struct TimeOrderedIdentifierGenerator: IdentifierGenerator {
    private let clock: any WallClock

    /// Creates the generator; `clock` gives the time written into each id.
    public init(clock: any WallClock = SystemWallClock()) {
        self.clock = clock
    }

    /// A new id, e.g. `019abf3c-5e21-7b4d-8c2f-1a2b3c4d5e6f`.
    public func makeIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        let random = generator.next() as UInt64
        var low = generator.next() as UInt64
        // 48 bits of milliseconds (enough until the year 10889), the version, 12 random bits.
        let milliseconds = UInt64(truncatingIfNeeded: max(0, clock.now().millisecondsSinceEpoch)) & 0xFFFF_FFFF_FFFF
        let high = (milliseconds << 16) | 0x7000 | (random & 0x0FFF)
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // RFC 9562 variant
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

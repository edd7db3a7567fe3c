import Domain
import Persistence
import RestaurantTesting
import Testing

@Suite struct TimeOrderedIdentifierGeneratorTests {
    @Test func identifiersAreDistinctLowercaseVersion7UUIDs() {
        let generator = TimeOrderedIdentifierGenerator()
        var seen = Set<String>()
        for _ in 0..<20_000 {
            let id = generator.makeIdentifier()
            let bytes = Array(id.utf8)
            #expect(bytes.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { bytes[$0] == UInt8(ascii: "-") }, "\(id)")
            #expect(bytes[14] == UInt8(ascii: "7"), "version nibble of \(id)")
            #expect("89ab".utf8.contains(bytes[19]), "variant nibble of \(id)")
            #expect(bytes.enumerated().allSatisfy { [8, 13, 18, 23].contains($0.offset) || "0123456789abcdef".utf8.contains($0.element) }, "\(id)")
            seen.insert(id)
        }
        #expect(seen.count == 20_000)
    }

    @Test func identifiersCarryTheClocksMillisecondsInTheirFirst48Bits() {
        // 2026-11-26T17:00:00.123Z = 0x019AC0B6_D1FB (milliseconds).
        let clock = ManualWallClock(Timestamp(millisecondsSinceEpoch: 0x019A_C0B6_D1FB))
        let id = TimeOrderedIdentifierGenerator(clock: clock).makeIdentifier()
        #expect(id.hasPrefix("019ac0b6-d1fb-7"), "\(id)")
    }

    @Test func laterIdentifiersSortAfterEarlierOnes() {
        let clock = ManualWallClock(Timestamp(millisecondsSinceEpoch: 1_764_000_000_000))
        let generator = TimeOrderedIdentifierGenerator(clock: clock)
        var made: [String] = []
        for _ in 0..<1_000 {
            made.append(generator.makeIdentifier())
            clock.advance(milliseconds: 1)
        }
        #expect(made == made.sorted())
    }
}

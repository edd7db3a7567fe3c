import Persistence
import Testing

@Suite struct RandomIdentifierGeneratorTests {
    @Test func identifiersAreDistinctLowercaseVersion4UUIDs() {
        let generator = RandomIdentifierGenerator()
        var seen = Set<String>()
        for _ in 0..<20_000 {
            let id = generator.makeIdentifier()
            let bytes = Array(id.utf8)
            #expect(bytes.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { bytes[$0] == UInt8(ascii: "-") }, "\(id)")
            #expect(bytes[14] == UInt8(ascii: "4"), "version nibble of \(id)")
            #expect("89ab".utf8.contains(bytes[19]), "variant nibble of \(id)")
            #expect(bytes.enumerated().allSatisfy { [8, 13, 18, 23].contains($0.offset) || "0123456789abcdef".utf8.contains($0.element) }, "\(id)")
            seen.insert(id)
        }
        #expect(seen.count == 20_000)
    }
}

import Testing
@testable import LoadEngine

@Suite("Stress mix and order arithmetic")
struct StressMixTests {
    @Test func aMixReadsKindsInAnyCaseAndDescribesThemInOrder() throws {
        let mix = try #require(StressMix(" ORDER = 2,read=1"))
        #expect(mix.weights == [.order: 2, .read: 1])
        #expect(mix.description == "read=1,order=2")
        #expect(mix.includes(.order) && !mix.includes(.review))
        let picks: [StressOperationKind] = (0..<300).map { mix.pick(UInt64($0)) }
        #expect(picks.filter { $0 == .order }.count == 200)
    }

    @Test(arguments: ["", "read=0", "read=1,read=2", "read", "write=1", "read=-1", "read=1000001"])
    func aMixThatIsNotOneIsRefused(_ text: String) {
        #expect(StressMix(text) == nil)
    }

    @Test func eachKindIsPickedForItsShareOfTheDraws() throws {
        let mix = try #require(StressMix("order=2,review=0,read=1"))
        // In the kinds' order (read before review before order), weight 0 never drawn.
        #expect((0..<6).map { mix.pick(UInt64($0)) } == [.read, .order, .order, .read, .order, .order])
        #expect(mix.pick(.max) == [StressOperationKind.read, .order, .order][Int(UInt64.max % 3)])
    }

    @Test func theNamedMixesSendEveryKindBetweenThem() {
        #expect(StressOperationKind.allCases.allSatisfy { kind in StressMix.named.contains { $0.mix.includes(kind) } })
        #expect(StressOperationKind.allCases.filter { $0 != .update }.allSatisfy { StressMix.standard.includes($0) })
    }

    @Test func theSteadyMixAddsNoRows() {
        let growing: [StressOperationKind] = [.review, .order, .cancel, .register]
        #expect(!growing.contains { StressMix.steady.includes($0) })
        #expect(StressMix.steady.includes(.update) && StressMix.steady.includes(.read))
    }

    @Test func aMixIsNamedOrWeighed() throws {
        #expect(StressMix(nameOrWeights: "Steady")?.description == StressMix.steady.description)
        #expect(StressMix(nameOrWeights: "standard")?.description == StressMix.standard.description)
        #expect(StressMix(nameOrWeights: "update=1")?.weights == [.update: 1])
        #expect(StressMix(nameOrWeights: "busy") == nil)
    }

    @Test func taxIsRoundedHalfToEven() {
        #expect(OrderArithmetic.tax(on: 1250, partsPerMillion: 80_000) == 100)
        #expect(OrderArithmetic.tax(on: 5, partsPerMillion: 100_000) == 0)
        #expect(OrderArithmetic.tax(on: 15, partsPerMillion: 100_000) == 2)
        #expect(OrderArithmetic.tax(on: 25, partsPerMillion: 100_000) == 2)
    }
}

import Domain
@testable import Persistence
import SeededRandom
import Testing

/// The held ranking of listed restaurants against a plain sorted array: the same order after
/// any mix of inserts and removes across chunk splits, and every walk from any position the same.
@Suite struct RestaurantRankingTests {
    private static func keys(_ ranking: RestaurantRanking, after: RestaurantRankKey? = nil) -> [RestaurantRankKey] {
        var keys: [RestaurantRankKey] = []
        ranking.forEach(after: after) { key in
            keys.append(key)
            return true
        }
        return keys
    }

    private static func sameOrder(_ left: [RestaurantRankKey], _ right: [RestaurantRankKey]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { !$0.precedes($1) && !$1.precedes($0) }
    }

    @Test func insertsAndRemovesKeepTheListingOrderAcrossChunkSplits() {
        var random = SplitMix64(seed: 42)
        // Few distinct ratings and names, so ties fall to the name and then the id; names that are
        // canonically equivalent but differ in bytes rank by bytes.
        let names = ["Alpha", "Beta", "Caf\u{E9}", "Cafe\u{301}", "Zed"]
        func key(_ number: Int) -> RestaurantRankKey {
            let rating = Double(Int.random(in: 0...8, using: &random)) / 2
            return RestaurantRankKey(rating: rating, name: names[number % names.count], id: RestaurantID("r-\(number)"))
        }
        var reference = (0..<300).map(key)
        var ranking = RestaurantRanking(reference)
        reference.sort { $0.precedes($1) }
        #expect(Self.sameOrder(Self.keys(ranking), reference))
        for step in 0..<3_000 {
            if Int.random(in: 0..<3, using: &random) == 0, !reference.isEmpty {
                let removed = reference.remove(at: Int.random(in: 0..<reference.count, using: &random))
                let wasHeld = ranking.remove(removed)
                let again = ranking.remove(removed)
                #expect(wasHeld, "step \(step)")
                #expect(!again, "removed twice at step \(step)")
            } else {
                let added = key(300 + step)
                ranking.insert(added)
                reference.insert(added, at: reference.firstIndex { !$0.precedes(added) } ?? reference.count)
            }
        }
        #expect(ranking.count == reference.count)
        #expect(Self.sameOrder(Self.keys(ranking), reference))
        #expect(reference.count > RestaurantRanking.chunkCapacity * 2, "the run must span several chunks")
        // A walk after any held key, and after keys that are not held, starts at the right place.
        for index in stride(from: 0, to: reference.count, by: 7) {
            #expect(Self.sameOrder(Self.keys(ranking, after: reference[index]), Array(reference[(index + 1)...])), "after \(index)")
        }
        let between = RestaurantRankKey(rating: 2.25, name: "M", id: RestaurantID("r-x"))
        #expect(Self.sameOrder(Self.keys(ranking, after: between), reference.filter { between.precedes($0) }))
        let first = RestaurantRankKey(rating: 9, name: "", id: RestaurantID(""))
        #expect(Self.sameOrder(Self.keys(ranking, after: first), reference))
        let past = RestaurantRankKey(rating: -1, name: "", id: RestaurantID(""))
        #expect(Self.keys(ranking, after: past).isEmpty)
    }

    @Test func aWalkStopsWhenItsBodySaysSoAndAnEmptyRankingWalksNothing() {
        var ranking = RestaurantRanking()
        #expect(Self.keys(ranking).isEmpty)
        let removed = ranking.remove(RestaurantRankKey(rating: 1, name: "A", id: RestaurantID("r-1")))
        #expect(!removed)
        for number in 0..<10 { ranking.insert(RestaurantRankKey(rating: 3, name: "N", id: RestaurantID("r-\(number)"))) }
        var seen = 0
        ranking.forEach(after: nil) { _ in
            seen += 1
            return seen < 4
        }
        #expect(seen == 4)
        #expect(Self.keys(ranking).map(\.id.rawValue) == (0..<10).map { "r-\($0)" })
    }
}

import Foundation

/// Relative weights of the operation kinds, e.g. `read=52,favorite=15,review=10,order=12,cancel=3,restock=3,register=5`.
/// Kinds left out weigh 0.
public struct StressMix: Sendable, CustomStringConvertible {
    /// Weight of each kind (≥ 0; their sum is > 0).
    public let weights: [StressOperationKind: Int]
    /// The kinds with a weight, each with the sum of the weights up to and including it, in
    /// the kinds' order: ``pick(_:)`` without a lookup by kind (whose hash is its name's).
    private let cumulative: [(kind: StressOperationKind, upTo: Int)]

    /// The default mix: mostly reads, with every invariant-bearing write well represented.
    public static let standard = StressMix("read=52,favorite=15,review=10,order=12,cancel=3,restock=3,register=5")!

    /// A mix whose data does not grow, for soaks: reads, profile updates, restocks, favourites
    /// saved and removed (a user's favourites stop at the cap of 100).
    public static let steady = StressMix("read=60,favorite=20,restock=10,update=10")!

    /// The mixes named by a word instead of weights.
    public static let named: [(name: String, mix: StressMix)] = [("standard", .standard), ("steady", .steady)]

    /// Reads a mix's name (``named``) or `KIND=WEIGHT,…`; `nil` for anything else.
    public init?(nameOrWeights text: String) {
        if let named = Self.named.first(where: { $0.name == text.lowercased() }) {
            self = named.mix
        } else {
            self.init(text)
        }
    }

    /// Reads `KIND=WEIGHT,…` (kinds in any letter case, each at most once, weights 0…1,000,000,
    /// not all 0); `nil` for anything else.
    public init?(_ text: String) {
        var weights: [StressOperationKind: Int] = [:]
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2,
                let kind = StressOperationKind(rawValue: pair[0].trimmingCharacters(in: .whitespaces).lowercased()),
                weights[kind] == nil,
                let weight = Int(pair[1].trimmingCharacters(in: .whitespaces)), (0...1_000_000).contains(weight)
            else { return nil }
            weights[kind] = weight
        }
        guard weights.values.reduce(0, +) > 0 else { return nil }
        self.weights = weights
        var sum = 0
        cumulative = StressOperationKind.allCases.compactMap { kind in
            guard let weight = weights[kind], weight > 0 else { return nil }
            sum += weight
            return (kind, sum)
        }
    }

    /// Picks a kind for a uniformly random `draw`.
    func pick(_ draw: UInt64) -> StressOperationKind {
        let point = Int(draw % UInt64(cumulative[cumulative.count - 1].upTo))
        for entry in cumulative where point < entry.upTo {
            return entry.kind
        }
        return .read
    }

    /// Whether `kind` is sent at all.
    func includes(_ kind: StressOperationKind) -> Bool { (weights[kind] ?? 0) > 0 }

    /// `KIND=WEIGHT,…` in the kinds' order.
    public var description: String {
        StressOperationKind.allCases.compactMap { kind in weights[kind].map { "\(kind.rawValue)=\($0)" } }.joined(separator: ",")
    }
}

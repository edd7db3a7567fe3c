import SeededRandom

/// A stress run's random choices, drawn from ``SplitMix64`` so they reproduce from `--seed`.
struct StressRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    mutating func next() -> UInt64 {
        generator.next()
    }

    /// A uniform index in `0..<count` (`count` > 0).
    mutating func index(_ count: Int) -> Int {
        Int(next() % UInt64(count))
    }

    /// `true` with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool {
        Int(next() % 100) < percent
    }
}

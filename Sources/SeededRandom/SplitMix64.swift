/// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast generator whose whole sequence follows
/// from its seed. For everything that must come out the same on every run: the sample data set,
/// a stress run's choices (`svcctl stress --seed`) and the tests' random inputs. Not for secrets.
///
/// `next()` is the reference algorithm (the state steps by the golden-ratio increment, then the
/// output is mixed); the derived draws of `RandomNumberGenerator` (`Int.random(in:using:)`,
/// `shuffle(using:)`, …) come from the standard library on top of it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is determined by `seed`; the seed is the initial state, as is.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 bits of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

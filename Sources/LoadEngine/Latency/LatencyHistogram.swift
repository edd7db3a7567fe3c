import Histogram

/// The latency histograms of a load run: microseconds from 1 µs to ``ceilingMicros``, three
/// significant digits.
public enum LatencyHistogram {
    /// The largest latency tracked: one hour (longer ones are recorded as one hour).
    public static let ceilingMicros: UInt64 = 3_600_000_000

    /// An empty histogram.
    public static func make() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: ceilingMicros, numberOfSignificantValueDigits: .three)
    }
}

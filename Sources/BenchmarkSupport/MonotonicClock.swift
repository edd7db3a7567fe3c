import Foundation

/// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds: a vDSO call of a few tens of nanoseconds,
/// cheap enough to take twice per round trip.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (CLOCK_MONOTONIC).
    @inline(__always)
    public static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

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

    /// Blocks the calling thread until `deadline` (nanoseconds on the same clock as
    /// ``nanoseconds()``); at once when it has passed.
    public static func sleep(until deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        // Interrupted by a signal: sleep on to the same absolute time.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}

import Tracing

/// A wall-clock instant for a span's start or end, made from a `ContinuousClock` instant: spans
/// recorded after the fact (the time a request queued, a commit on the store's thread) are
/// placed by the monotonic clock's distance from now.
public struct WallInstant: TracerInstant {
    /// Nanoseconds since the Unix epoch.
    public let nanosecondsSinceEpoch: UInt64

    /// The instant `instant` of the continuous clock, on the wall clock.
    public init(_ instant: ContinuousClock.Instant) {
        let now = DefaultTracerClock.now.nanosecondsSinceEpoch
        let ago = instant.duration(to: .now)
        let (seconds, attoseconds) = ago.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        nanosecondsSinceEpoch = nanoseconds >= 0 ? now &- UInt64(nanoseconds) : now &+ UInt64(-nanoseconds)
    }

    public static func < (lhs: WallInstant, rhs: WallInstant) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}

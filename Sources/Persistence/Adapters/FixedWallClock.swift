import Domain

/// A clock that always shows one time: for work whose times are decided by the caller rather
/// than read from the system. The sample data set runs each of its steps with one showing the
/// data set's own time, so every run stamps the same times. (Tests that need to move time while
/// a use case holds the clock use a test double, `ManualWallClock` in RestaurantTesting.)
public struct FixedWallClock: WallClock {
    /// The time it shows.
    public let time: Timestamp

    /// A clock always showing `time`.
    public init(_ time: Timestamp) {
        self.time = time
    }

    /// Always ``time``.
    public func now() -> Timestamp { time }
}

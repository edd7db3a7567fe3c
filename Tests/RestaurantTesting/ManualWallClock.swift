import Domain
import Synchronization

/// A test double of ``WallClock``: it shows the time it was set to until the test moves it
/// (`set`, `advance`), so a test decides exactly when "now" is and when it passes. Production
/// code that needs times it decides itself uses ``FixedWallClock``.
public final class ManualWallClock: WallClock {
    private let current: Mutex<Timestamp>

    /// A clock showing `start`.
    public init(_ start: Timestamp) {
        self.current = Mutex(start)
    }

    /// The time it shows.
    public func now() -> Timestamp {
        current.withLock { $0 }
    }

    /// Moves the clock to `time`.
    public func set(_ time: Timestamp) {
        current.withLock { $0 = time }
    }

    /// Moves the clock forward by `milliseconds`.
    public func advance(milliseconds: Int64) {
        current.withLock { $0 = $0.adding(milliseconds: milliseconds) }
    }
}

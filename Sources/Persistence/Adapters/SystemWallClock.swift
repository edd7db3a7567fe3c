import Domain
import Foundation

/// The real clock: the system's wall-clock time, in milliseconds.
public struct SystemWallClock: WallClock {
    /// Creates the clock.
    public init() {}

    /// The current time.
    public func now() -> Timestamp {
        Timestamp(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}

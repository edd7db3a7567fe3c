/// The source of "now". Production reads the system clock; tests fix it.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Timestamp
}

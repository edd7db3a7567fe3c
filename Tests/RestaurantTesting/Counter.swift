import Synchronization

/// A thread-safe counter for unique test data (1, 2, 3, …).
final class Counter: Sendable {
    private let value = Mutex(0)

    /// The next number.
    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}

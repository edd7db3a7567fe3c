import Domain
import Synchronization

/// Ids `prefix-000001`, `prefix-000002`, …: the same on every run. The sample data set makes its
/// ids with it (`u-000001`, `r-000001`, …, which the documentation's examples use), and tests
/// use it for ids they can read. Unique only within one generator: the service's own ids come
/// from ``TimeOrderedIdentifierGenerator``.
public final class SequentialIdentifierGenerator: IdentifierGenerator {
    private let prefix: String
    private let counter = Mutex(0)

    /// A generator whose ids start with `prefix`.
    public init(prefix: String = "id") {
        self.prefix = prefix
    }

    /// The next id in sequence.
    public func makeIdentifier() -> String {
        let next = counter.withLock { value in
            value += 1
            return value
        }
        let digits = String(next)
        return prefix + "-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}

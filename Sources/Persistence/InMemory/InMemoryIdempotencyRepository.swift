import Domain
import Synchronization

/// Idempotency keys' bindings held in memory, shared by the in-memory repositories of one store.
///
/// A repository binds a key with ``perform(_:_:)``, which holds this ledger's lock while the
/// repository's write runs (synchronously, inside the repository actor's own step): the check
/// that the key is free, the write and the binding are one atomic step, even when two
/// repositories (two actors) are handed the same key at once.
public final class InMemoryIdempotencyRepository: IdempotencyRepository {
    private struct Entry {
        let binding: IdempotencyBinding
        let madeAt: Timestamp
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let clock: any WallClock

    /// An empty ledger; bindings are stamped with `clock`'s time.
    public init(clock: any WallClock = SystemWallClock()) {
        self.clock = clock
    }

    /// The binding of `key`, if any.
    public func binding(forKey key: String) -> IdempotencyBinding? {
        entries.withLock { $0[key]?.binding }
    }

    /// Forgets the bindings made before `cutoff`.
    public func removeBindings(madeBefore cutoff: Timestamp) -> Int {
        entries.withLock { entries in
            let before = entries.count
            entries = entries.filter { $0.value.madeAt >= cutoff }
            return before - entries.count
        }
    }

    /// Runs `write` as the write `claim` binds: when the key is bound already, throws the
    /// claim's answer to it and does not run `write`; otherwise runs it and, when it returns a
    /// result (it succeeded), binds the key to that result. Without a claim it just runs `write`.
    func perform<T: Sendable>(_ claim: IdempotencyClaim?, _ write: () throws -> (T, WriteResult?)) throws -> T {
        guard let claim else { return try write().0 }
        return try entries.withLock { entries throws -> T in
            if let bound = entries[claim.key] {
                throw claim.answer(toBound: bound.binding)
            }
            let (value, result) = try write()
            if let result {
                entries[claim.key] = Entry(binding: claim.binding(for: result), madeAt: clock.now())
            }
            return value
        }
    }
}

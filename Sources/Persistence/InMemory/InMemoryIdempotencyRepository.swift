import Domain
import Synchronization

/// Idempotency keys' bindings held in memory, shared by the in-memory repositories of one store.
///
/// A repository runs each write through ``perform(_:_:)``, which holds this ledger's lock while
/// the repository's write runs (synchronously, inside the repository actor's own step): the check
/// that the key is free, the write, the binding and the write's event (appended to the store's
/// ``InMemoryEventRepository``) are one atomic step, even when two repositories (two actors) are
/// handed the same key at once.
public final class InMemoryIdempotencyRepository: IdempotencyRepository {
    private struct Entry {
        let binding: IdempotencyBinding
        let madeAt: Timestamp
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let clock: any WallClock
    /// Where the writes' events are appended.
    let events: InMemoryEventRepository

    /// An empty ledger; bindings are stamped with `clock`'s time, and the writes' events appended
    /// to `events` (by default a log that keeps none).
    public init(clock: any WallClock = SystemWallClock(), events: InMemoryEventRepository? = nil) {
        self.clock = clock
        self.events = events ?? InMemoryEventRepository(encoder: nil, clock: clock)
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
    /// claim's answer to it and does not run `write`; otherwise runs it and, when it returns what
    /// it stored (it succeeded), binds the key to its result and appends its event, if any.
    func perform<T: Sendable>(_ claim: IdempotencyClaim?, _ write: () throws -> (T, StoredWrite?)) throws -> T {
        let encoder = EventRecording.encoder(events.encoder)
        guard let claim else {
            let (value, stored) = try write()
            if let event = stored?.event, let encoder { events.append(event, encodedBy: encoder) }
            return value
        }
        return try entries.withLock { entries throws -> T in
            if let bound = entries[claim.key] {
                throw claim.answer(toBound: bound.binding)
            }
            let (value, stored) = try write()
            if let stored {
                entries[claim.key] = Entry(binding: claim.binding(for: stored.result), madeAt: clock.now())
                if let event = stored.event, let encoder { events.append(event, encodedBy: encoder) }
            }
            return value
        }
    }
}

import Domain
import GRDB

/// Idempotency keys' bindings in SQLite's `idempotency_keys` table. The SQLite repositories bind
/// keys in their own write transactions (``SQLiteStore/write(boundTo:_:)``); this reads the
/// bindings back and forgets old ones.
///
/// Every method is `nonisolated(nonsending)`: a call runs on its caller's executor, not on the
/// generic executor (two thread hand-offs from an endpoint's socket thread and back).
public struct SQLiteIdempotencyRepository: IdempotencyRepository {
    private let store: SQLiteStore

    /// A key's binding, by key (also read by every write with a claim).
    static let selectBinding = "SELECT \(IdempotencyRecord.selection) FROM idempotency_keys WHERE key = ?"

    /// Bindings of `store`.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// The binding of `key`, if any.
    public nonisolated(nonsending) func binding(forKey key: String) async throws -> IdempotencyBinding? {
        try await store.read { db in
            try db.record(IdempotencyRecord.self, Self.selectBinding, [key])?.binding()
        }
    }

    /// Forgets the bindings made before `cutoff`; returns once durable.
    public nonisolated(nonsending) func removeBindings(madeBefore cutoff: Timestamp) async throws -> Int {
        try await store.write { db in
            try db.run("DELETE FROM idempotency_keys WHERE made_at < ?", [cutoff.millisecondsSinceEpoch])
            return db.changesCount
        }
    }
}

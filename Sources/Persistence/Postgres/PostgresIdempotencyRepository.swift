import Domain
import PostgresNIO

/// Idempotency keys' bindings in PostgreSQL's `idempotency_keys` table. The PostgreSQL
/// repositories bind keys in their own write transactions (``PostgresStore/write(claim:_:)``);
/// this reads the bindings back and forgets old ones.
public struct PostgresIdempotencyRepository: IdempotencyRepository {
    private let store: PostgresStore

    /// Bindings of `store`.
    public init(store: PostgresStore) {
        self.store = store
    }

    /// The binding of `key`, if any (a key being claimed by an open transaction is not bound yet).
    public func binding(forKey key: String) async throws -> IdempotencyBinding? {
        try await store.read { connection, logger in
            try await connection.rows(SelectBinding.self, logger, binding: { $0.append(key) }) { try IdempotencyRecord($0).binding() }.first
        }
    }

    /// Forgets the bindings made before `cutoff`.
    public func removeBindings(madeBefore cutoff: Timestamp) async throws -> Int {
        try await store.writeStatement { connection, logger in
            try await connection.row(
                """
                WITH removed AS (DELETE FROM idempotency_keys WHERE made_at < \(cutoff.millisecondsSinceEpoch) RETURNING 1)
                SELECT count(*)::bigint FROM removed
                """,
                logger
            ) { try $0.decode(Int.self) } ?? 0
        }
    }
}

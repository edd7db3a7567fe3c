/// The names of the schema migrations, in order. Both durable stores register their migrations
/// under these names (SQLite in GRDB's migration table, PostgreSQL in `schema_migrations`), so a
/// name means the same schema change in either.
enum MigrationName {
    /// The tables of users, restaurants, reviews, favorites, menu items and orders.
    static let base = "v1"
    /// The `idempotency_keys` table.
    static let idempotencyKeys = "idempotency-keys"
    /// The `events` table: the event log, written in each write's own transaction.
    static let events = "events"
    /// The orders' `status` and `cancelled_at` columns (CancelOrder); existing orders are placed.
    static let orderStatus = "order-status"
}

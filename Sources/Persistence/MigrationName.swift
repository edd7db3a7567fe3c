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
    /// Drops the indexes on foreign-key columns that no query reads by (a review's user, a
    /// favourite's restaurant, an order line's item): no parent row is ever deleted or re-keyed,
    /// so they only cost each write an index insertion.
    static let unqueriedIndexes = "unqueried-indexes"
}

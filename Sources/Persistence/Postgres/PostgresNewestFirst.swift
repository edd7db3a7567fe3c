import Domain
import PostgresNIO

/// The one query shape of every newest-first listing in PostgreSQL: up to `limit` rows of
/// `table` matching `filter` (whose placeholders are `$1`… for `filterArguments`), `created_at`
/// then `id` descending, strictly after the position `after` when given. Served by an index
/// ending in `(created_at, id)`.
struct PostgresNewestFirst<Entity> {
    let columns: String
    let table: String
    let filter: String
    var filterArguments: [String] = []
    let after: RecencyKey<Entity>?
    let limit: Int

    var sql: PostgresQuery {
        var binds = PostgresBindings()
        for argument in filterArguments { binds.append(argument) }
        var conditions = filter
        if let after {
            binds.append(after.createdAt.millisecondsSinceEpoch)
            binds.append(after.id.rawValue)
            conditions += " AND (created_at, id) < ($\(binds.count - 1), $\(binds.count))"
        }
        binds.append(limit)
        return PostgresQuery(
            unsafeSQL: "SELECT \(columns) FROM \(table) WHERE \(conditions) ORDER BY created_at DESC, id DESC LIMIT $\(binds.count)",
            binds: binds
        )
    }
}

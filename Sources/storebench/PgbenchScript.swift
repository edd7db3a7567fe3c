import Foundation

/// A pgbench workload the cluster benchmark measures on the same server as svcd, each the
/// reference for one of svcd's workloads (``ClusterWorkload/pgbenchReference``).
enum PgbenchScript: String, CaseIterable, Sendable {
    /// A custom script: one `INSERT … ON CONFLICT DO NOTHING RETURNING` per transaction into
    /// `bench_users`, a copy of the users table (RegisterUser's statement).
    case insert
    /// pgbench's built-in `select-only` (`-S`): one primary-key `SELECT` of `pgbench_accounts`.
    case selectOnly = "select-only"
    /// pgbench's built-in `tpcb-like`: a transaction of three `UPDATE`s, a `SELECT` and an
    /// `INSERT` (five statements).
    case tpcbLike = "tpcb-like"

    /// The workload column of its rows.
    var label: String {
        switch self {
        case .insert: "INSERT"
        case .selectOnly: "select-only"
        case .tpcbLike: "tpcb-like"
        }
    }

    /// Whether it needs pgbench's own tables (`pgbench -i`).
    var needsPgbenchTables: Bool { self != .insert }

    /// pgbench's arguments choosing the script (`customScript`: the file of ``insertScript``).
    func arguments(customScript: String) -> [String] {
        switch self {
        case .insert: Self.arguments(scriptFile: customScript)
        // -n: no VACUUM of pgbench's tables before each run (they are vacuumed once, at -i).
        case .selectOnly, .tpcbLike: ["-n", "-b", rawValue]
        }
    }

    /// pgbench's arguments running the script in `path` (`-n`: it uses none of pgbench's tables).
    static func arguments(scriptFile path: String) -> [String] {
        ["-n", "-f", path]
    }

    /// pgbench's scale for its built-in scripts' tables: 10 branches, 1,000,000 accounts, so 64
    /// clients' tpcb-like transactions rarely wait for one another's branch rows more than
    /// svcd's orders, spread over 64 users and items, wait for theirs.
    static let scale = 10

    /// ``insert``'s script: one row shaped like the service's users per transaction, the same
    /// statement the service's RegisterUser runs (its values made on the server from pgbench's
    /// variables).
    static let insertScript = """
        \\set n random(1, 1000000000000)
        INSERT INTO bench_users (id, name, email, email_key, joined_at, is_active, subscription_active_until)
        VALUES ('pgbench-' || :client_id || '-' || :n, 'Bench User', 'p' || :client_id || '-' || :n || '@example.com',
                'p' || :client_id || '-' || :n || '@example.com', 1767225600000, true, NULL)
        ON CONFLICT (email_key) DO NOTHING RETURNING id;

        """
}

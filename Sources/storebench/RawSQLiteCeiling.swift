import BenchmarkSupport
import Foundation
import GRDB
import Persistence
import ZeroMQ

/// Raw SQLite for the same rows: a GRDB `DatabaseQueue` on a database with the service's
/// schema, WAL and `synchronous = FULL` (the service's settings), inserting rows in transactions
/// of a given number of rows, one commit (one WAL fsync) per transaction. No transport, no
/// actors, no use cases: what durable inserts cost on this disk, one commit per write (the
/// reference of the durable-write goal) or many per commit (the ceiling of batching).
struct RawSQLiteCeiling {
    let directory: String
    let seconds: Double

    /// Inserts `users` rows for `seconds`, `rowsPerCommit` per transaction; returns rows per second.
    func users(round: Int, rowsPerCommit: Int) async throws -> Double {
        let path = try await createSchema("raw-users-\(round)-\(rowsPerCommit)")
        return try await onThread { try usersBlocking(path: path, round: round, rowsPerCommit: rowsPerCommit) }
    }

    /// Inserts `favorites` rows (users × 300 restaurants, as the service run does) for `seconds`,
    /// `rowsPerCommit` per transaction.
    func favorites(round: Int, rowsPerCommit: Int) async throws -> Double {
        let path = try await createSchema("raw-favorites-\(round)-\(rowsPerCommit)")
        return try await onThread { try favoritesBlocking(path: path, rowsPerCommit: rowsPerCommit) }
    }

    private func usersBlocking(path: String, round: Int, rowsPerCommit: Int) throws -> Double {
        let queue = try open(path)
        let joined = Int64(Date().timeIntervalSince1970 * 1000)
        // The service's own ids (time-ordered), so both insert into the id index alike.
        let ids = TimeOrderedIdentifierGenerator()
        let rate = try insertForDuration(queue, rowsPerCommit: rowsPerCommit) { db, row in
            let id = ids.makeIdentifier()
            let email = "raw-\(round)-\(row)-\(id.prefix(6))@example.com"
            try db.execute(
                sql: "INSERT INTO users (id, name, email, email_key, joined_at, is_active) VALUES (?, ?, ?, ?, ?, 1)",
                arguments: [id, "Bench User", email, email.lowercased(), joined]
            )
        }
        try queue.close()
        return rate
    }

    private func favoritesBlocking(path: String, rowsPerCommit: Int) throws -> Double {
        let queue = try open(path)
        // Parents for the foreign keys, not timed.
        try queue.write { db in
            for index in 1...300 {
                try db.execute(
                    sql: """
                        INSERT INTO restaurants (id, name, cuisine, price_level, address, latitude, longitude, opening_hours,
                            rating_total, review_count, created_at, rank_rating, listed, name_key, cuisine_key)
                        VALUES (?, 'R', 'Thai', 2, '1 Main St', 0, 0, '[]', 0, 0, 0, 0, 1, 'r', 'thai')
                        """,
                    arguments: [String(format: "r-%06d", index)]
                )
            }
            for index in 0..<20_000 {
                try db.execute(
                    sql: "INSERT INTO users (id, name, email, email_key, joined_at, is_active) VALUES (?, 'U', ?, ?, 0, 1)",
                    arguments: ["u-\(index)", "u\(index)@example.com", "u\(index)@example.com"]
                )
            }
        }
        let saved = Int64(Date().timeIntervalSince1970 * 1000)
        let rate = try insertForDuration(queue, rowsPerCommit: rowsPerCommit) { db, row in
            try db.execute(
                sql: "INSERT INTO favorites (user_id, restaurant_id, saved_at) VALUES (?, ?, ?)",
                arguments: ["u-\(row / 100)", String(format: "r-%06d", 1 + row % 100 + (row / 100) % 200), saved]
            )
        }
        try queue.close()
        return rate
    }

    /// A new database with the service's own schema, created by the service's store.
    private func createSchema(_ name: String) async throws -> String {
        let path = directory + "/\(name).sqlite"
        let store = try SQLiteStore(path: path, events: nil)
        try await store.close()
        return path
    }

    private func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        // The service's own connection settings (synchronous = FULL and the rest).
        configuration.prepareDatabase { db in try db.execute(sql: SQLiteStore.connectionSettings) }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        // As the service's store does: GRDB set NORMAL when it switched the queue to WAL.
        try queue.writeWithoutTransaction(SQLiteStore.syncEveryCommit)
        return queue
    }

    private func insertForDuration(_ queue: DatabaseQueue, rowsPerCommit: Int, _ insert: (Database, Int) throws -> Void) throws -> Double {
        let start = MonotonicClock.nanoseconds()
        let stop = start + UInt64(seconds * 1e9)
        var rows = 0
        while MonotonicClock.nanoseconds() < stop {
            try queue.inTransaction { db in
                for _ in 0..<rowsPerCommit {
                    try insert(db, rows)
                    rows += 1
                }
                return .commit
            }
        }
        return Double(rows) / (Double(MonotonicClock.nanoseconds() - start) / 1e9)
    }
}

/// Runs blocking work on a dedicated thread, never on the cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await DedicatedThread.run(named: "storebench-work", body)
}

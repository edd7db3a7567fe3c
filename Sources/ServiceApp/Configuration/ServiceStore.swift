import Foundation
import Persistence
import Transport
import WireContract

/// The store a running service is built on, as start-up, the admin operations and shutdown see
/// it: its kind, whether it answers, how to back it up and how to close it.
enum ServiceStore: Sendable {
    /// `DATA_DIR/store.sqlite`.
    case sqlite(SQLiteStore)
    /// A PostgreSQL database shared with other instances.
    case postgres(PostgresStore)
    /// Process memory (its event log).
    case memory(InMemoryEventRepository)

    /// `sqlite`, `postgres` or `memory`, as admin `status` reports it.
    var kind: ServiceConfiguration.StoreKind {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .postgres
        case .memory: .memory
        }
    }

    /// Where the reads that wait for the database (`ServingPath.waitingRead`, decided from what
    /// the repositories hold) run: SQLite's own read threads, on which a
    /// query blocks its thread instead of crossing to GRDB's queues and back; `nil`, the global
    /// concurrent executor (a PostgreSQL read waits without blocking a thread).
    var readExecutor: BlockingReadExecutor? {
        if case .sqlite = self { return Self.sqliteReadThreads }
        return nil
    }

    /// The threads every SQLite store of this process reads on, started on first use and kept
    /// for the life of the process, like Swift's own pool: services built side by side (the
    /// tests build dozens) share them instead of adding threads each. As many as cores: a read
    /// keeps its core busy while it runs. The store's other reads (a write's idempotency check,
    /// start-up) come here too, so the process keeps a fixed set of threads under any load.
    static let sqliteReadThreads = BlockingReadExecutor(
        threads: max(2, ProcessInfo.processInfo.activeProcessorCount), named: "sqlite-read"
    ) {
        SQLiteStore.permitBlockingReadsOnThisThread()
    }

    /// Succeeds when the store answers a trivial read (PostgreSQL: within the operation timeout).
    func ping() async throws {
        switch self {
        case .sqlite(let store): try await store.ping()
        case .postgres(let store): try await store.ping()
        case .memory: break
        }
    }

    /// The highest seq of the event log as this instance knows it, without waiting: what the live
    /// stream's statistics compare its progress with.
    var lastEventSeq: Int64 {
        switch self {
        case .sqlite(let store): store.lastEventSeq
        case .postgres(let store): store.lastEventSeq
        case .memory(let events): events.lastSeq()
        }
    }

    /// Whether writes find the store's storage full (until one commits again).
    var isFull: Bool {
        switch self {
        case .sqlite(let store): store.fullness.isFull
        case .postgres(let store): store.fullness.isFull
        case .memory: false
        }
    }

    /// How the SQLite store grouped writes into commits (`nil` for the other stores).
    var commitStatistics: GroupCommitStatistics? {
        if case .sqlite(let store) = self { return store.commitStatistics }
        return nil
    }

    /// Writes a consistent copy of the SQLite store to `path`; the other stores cannot.
    func backup(to path: String) async throws {
        switch self {
        case .sqlite(let store): try await store.backup(to: path)
        case .postgres: throw BackupUnavailable(reason: "a PostgreSQL store is backed up with pg_dump, not through svcd (see Docs/OPERATIONS.md)")
        case .memory: throw BackupUnavailable(reason: "the in-memory store cannot be backed up")
        }
    }

    /// Closes the store: SQLite checkpoints and closes its file; PostgreSQL closes its pool.
    func close() async throws {
        switch self {
        case .sqlite(let store): try await store.close()
        case .postgres(let store): await store.close()
        case .memory: break
        }
    }
}

/// This store has nothing svcd can back up; `reason` says what to do instead.
public struct BackupUnavailable: Error, CustomStringConvertible {
    /// Why, in plain words.
    public let reason: String
    public var description: String { reason }
}

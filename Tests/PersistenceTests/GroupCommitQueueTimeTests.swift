import Domain
import Foundation
import GRDB
@testable import Persistence
import RestaurantTesting
import Synchronization
import Testing

/// Overload bounded by time in the SQLite store: a write that has waited longer than the
/// queue-time target when its group commit starts is refused `busy` unrun, so the writes still
/// accepted wait about the target plus one commit, not for every write queued ahead of them.
@Suite struct GroupCommitQueueTimeTests {
    @Test func writesQueuedPastTheTargetBehindASlowCommitAreRefusedBusyAndWriteNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/store.sqlite", events: nil, queueTimeTarget: .milliseconds(50))
        let progress = Progress()
        let slow = try await holdTheWriter(store, untilSubmitted: 40, progress) { db in
            try db.execute(sql: "CREATE TABLE probe (n INTEGER NOT NULL)")
        }

        // 40 writes queue behind the slow one.
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<40 {
                group.addTask {
                    progress.submitted.add(1, ordering: .releasing)
                    do {
                        try await store.write { db in try db.execute(sql: "INSERT INTO probe (n) VALUES (?)", arguments: [index]) }
                        return "written"
                    } catch let failure as RepositoryFailure {
                        if case .busy(let reason) = failure, reason.contains("queue-time target") { return "busy" }
                        return "\(failure)"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        try await slow.value
        #expect(outcomes == ["busy": 40], "\(outcomes)")
        #expect(store.commitStatistics.refused == 40)
        // Nothing of them was written; a write that does not wait is served.
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM probe") } == 0)
        try await store.write { db in try db.execute(sql: "INSERT INTO probe (n) VALUES (99)") }
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM probe") } == 1)
        try await store.close()
    }
}

extension GroupCommitQueueTimeTests {
    /// Seeding is no client's request: its writes wait behind a slow commit as long as it takes
    /// (a refused seeding write would stop svcd from starting).
    @Test func exemptWritesWaitPastTheTargetAndAreWritten() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/store.sqlite", events: nil, queueTimeTarget: .milliseconds(50))
        try await store.write { db in try db.execute(sql: "CREATE TABLE probe (n INTEGER NOT NULL)") }
        let progress = Progress()
        let slow = try await holdTheWriter(store, untilSubmitted: 10, progress)
        try await QueueTimeExemption.exempt {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        progress.submitted.add(1, ordering: .releasing)
                        try await store.write { db in try db.execute(sql: "INSERT INTO probe (n) VALUES (?)", arguments: [index]) }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await slow.value
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM probe") } == 10)
        #expect(store.commitStatistics.refused == 0)
        try await store.close()
    }
}

/// Starts a write that holds the store's writer (a slow disk's commit) until `count` writes
/// were submitted and 300 ms more, so each of them waits past a short target, then runs
/// `finish` in it; returns once it holds the writer.
private func holdTheWriter(
    _ store: SQLiteStore, untilSubmitted count: Int, _ progress: Progress, finish: @escaping @Sendable (Database) throws -> Void = { _ in }
) async throws -> Task<Void, any Error> {
    let slow = Task {
        try await store.write { db in
            progress.started.store(true, ordering: .releasing)
            let deadline = Date().addingTimeInterval(20)
            while progress.submitted.load(ordering: .acquiring) < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            Thread.sleep(forTimeInterval: 0.3)
            try finish(db)
        }
    }
    try await waitUntil("the slow write holds the writer") { progress.started.load(ordering: .acquiring) }
    return slow
}

/// How far the test's writes have got, shared with the slow write's body.
private final class Progress: Sendable {
    let started = Atomic<Bool>(false)
    let submitted = Atomic<Int>(0)
}

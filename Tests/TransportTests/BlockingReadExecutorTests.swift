import Dispatch
import Foundation
import RestaurantTesting
import Synchronization
import Testing
@testable import Persistence
@testable import Transport

/// The threads SQLite's reads run on: every task preferring them runs there after the thread's
/// set-up, a read on them blocks right there, and closing them loses no task.
@Suite struct BlockingReadExecutorTests {
    @Test func everyTaskPreferringTheExecutorRunsOnOneOfItsThreadsAfterItsSetUp() async {
        let setUpThreads = ThreadList()
        let executor = BlockingReadExecutor(threads: 2, named: "test-read") {
            setUpThreads.threads.withLock { $0.append(pthread_self()) }
        }
        defer { executor.close() }
        let onSetUpThread = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<500 {
                group.addTask(executorPreference: executor) {
                    let current = pthread_self()
                    return setUpThreads.threads.withLock { threads in threads.contains { pthread_equal($0, current) != 0 } }
                }
            }
            return await group.reduce(into: 0) { count, on in count += on ? 1 : 0 }
        }
        #expect(onSetUpThread == 500)
    }

    @Test func aSQLiteReadOnAThreadThatPermitsBlockingRunsOnThatThread() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/store.sqlite", events: nil)
        let executor = BlockingReadExecutor(threads: 1, named: "test-read") { SQLiteStore.permitBlockingReadsOnThisThread() }
        let (caller, reader, answer) = try await Task(executorPreference: executor) {
            let caller = pthread_self()
            let (reader, answer) = try await store.read { db in (pthread_self(), try Int.fetchOne(db, sql: "SELECT 41 + 1")) }
            return (caller, reader, answer)
        }.value
        #expect(pthread_equal(caller, reader) != 0, "the read ran on the read thread itself")
        #expect(answer == 42)
        // Elsewhere (Swift's pool) the same read is handed to GRDB's queues, and still answers.
        let elsewhere = try await Task.detached { try await store.read { db in try Int.fetchOne(db, sql: "SELECT 6 * 7") } }.value
        #expect(elsewhere == 42)
        #expect(!SQLiteStore.blockingReadsPermitted, "the test's own thread was never marked")
        executor.close()
        try await store.close()
    }

    @Test func aLaneWithABacklogDelaysAnotherLanesJobByOneJobNotByTheBacklog() async {
        let executor = BlockingReadExecutor(threads: 1, named: "test-read") {}
        defer { executor.close() }
        let slow = executor.lane(named: "slow")
        let quick = executor.lane(named: "quick")
        #expect(executor.lane(named: "slow") === slow, "one lane per name")
        let gate = DispatchSemaphore(value: 0)
        let order = RunOrder()
        await withTaskGroup(of: Void.self) { group in
            // The first slow job holds the only thread until every other job is queued (a task's
            // first job is queued as the task is created): the slow lane then has 50 jobs ahead
            // of the quick one.
            group.addTask(executorPreference: slow) {
                order.names.withLock { $0.append("slow-0") }
                gate.wait()
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while order.names.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
            for number in 1...50 {
                group.addTask(executorPreference: slow) { order.names.withLock { $0.append("slow-\(number)") } }
            }
            group.addTask(executorPreference: quick) { order.names.withLock { $0.append("quick") } }
            gate.signal()
        }
        let ran = order.names.withLock { $0 }
        #expect(ran.count == 52)
        // slow-0 was running; then each lane in turn.
        #expect(ran.firstIndex(of: "quick") == 2, "the quick lane's job ran after two slow jobs, not after 51: \(ran.prefix(5))")
        #expect(ran.filter { $0.hasPrefix("slow") } == (0...50).map { "slow-\($0)" }, "a lane runs its jobs in the order queued")
    }

    @Test func afterCloseTheThreadsEndAndLaterTasksStillRunElsewhere() async throws {
        let executor = BlockingReadExecutor(threads: 3, named: "test-read") {}
        #expect(executor.threadsServing == 3)
        let before = await Task(executorPreference: executor) { 1 }.value
        executor.close()
        executor.close()
        let deadline = ContinuousClock.now + .seconds(10)
        while executor.threadsServing > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(executor.threadsServing == 0)
        let after = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask(executorPreference: executor) { 1 } }
            return await group.reduce(0, +)
        }
        #expect(before + after == 101)
    }
}

/// The threads that ran a set-up.
private final class ThreadList: Sendable {
    let threads = Mutex<[pthread_t]>([])
}

/// The names of jobs, in the order they ran.
private final class RunOrder: Sendable {
    let names = Mutex<[String]>([])
}

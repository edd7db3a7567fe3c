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
            await poll(until: deadline) { !order.names.withLock { $0.isEmpty } }
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

    /// A lane's backlog, as the endpoints' admission reads it: zero while nothing waits in it,
    /// the age of its oldest job while jobs wait, zero again once they have run; another lane's
    /// backlog is not its own.
    @Test func aLanesOldestWaitIsTheAgeOfItsOldestQueuedJob() async throws {
        let executor = BlockingReadExecutor(threads: 1, named: "test-read") {}
        defer { executor.close() }
        let waiting = executor.lane(named: "waiting")
        let other = executor.lane(named: "other")
        #expect(waiting.oldestWait == .zero)
        let gate = DispatchSemaphore(value: 0)
        let order = RunOrder()
        await withTaskGroup(of: Void.self) { group in
            group.addTask(executorPreference: other) {
                order.names.withLock { $0.append("holder") }
                gate.wait()
            }
            let deadline = ContinuousClock.now + .seconds(10)
            await poll(until: deadline) { !order.names.withLock { $0.isEmpty } }
            let queued = ContinuousClock.now
            group.addTask(executorPreference: waiting) { order.names.withLock { $0.append("waiter") } }
            await poll(until: deadline) { waiting.oldestWait >= .milliseconds(20) }
            let seen = waiting.oldestWait
            #expect(seen >= .milliseconds(20), "the queued job's wait shows")
            #expect(seen <= queued.duration(to: .now), "no older than the job")
            #expect(other.oldestWait == .zero, "the holder runs: nothing waits in its lane")
            gate.signal()
        }
        #expect(order.names.withLock { $0 } == ["holder", "waiter"])
        #expect(waiting.oldestWait == .zero)
    }

    /// Jobs that waited past the target refuse themselves in microseconds: a lane's turn takes
    /// them together (up to 32), so a backlog of them is answered at once instead of one per
    /// round of every lane; a job in time still takes a turn of its own.
    @Test func aLanesTurnTakesItsOverdueJobsTogetherUpToThirtyTwo() async {
        let executor = BlockingReadExecutor(threads: 1, named: "test-read") {}
        defer { executor.close() }
        executor.setOverdue(after: .milliseconds(20))
        let backlog = executor.lane(named: "backlog")
        let other = executor.lane(named: "other")
        let gate = DispatchSemaphore(value: 0)
        let order = RunOrder()
        await withTaskGroup(of: Void.self) { group in
            group.addTask(executorPreference: executor.lane(named: "holder")) {
                order.names.withLock { $0.append("holder") }
                gate.wait()
            }
            let deadline = ContinuousClock.now + .seconds(10)
            await poll(until: deadline) { !order.names.withLock { $0.isEmpty } }
            for number in 1...40 {
                group.addTask(executorPreference: backlog) { order.names.withLock { $0.append("backlog-\(number)") } }
            }
            group.addTask(executorPreference: other) { order.names.withLock { $0.append("other") } }
            // Every job queued so far is overdue.
            await poll(until: deadline) { backlog.oldestWait > .milliseconds(20) }
            gate.signal()
        }
        let ran = order.names.withLock { $0 }
        #expect(ran.count == 42)
        // One turn of the backlog: 32 overdue jobs and one more; then the other lane's turn.
        #expect(ran.firstIndex(of: "other") == 34, "\(ran.prefix(3)) … \(ran.dropFirst(32).prefix(4))")
        #expect(ran.filter { $0.hasPrefix("backlog") } == (1...40).map { "backlog-\($0)" })
    }

    /// A task that prefers the executor itself (a store's read from Swift's pool) keeps its
    /// thread across calls of async functions, instead of queueing again behind the jobs that
    /// came meanwhile (where no queue-time check would see it).
    @Test func aTaskPreferringTheExecutorItselfIsNotQueuedAgainByAnAsyncCall() async {
        let executor = BlockingReadExecutor(threads: 1, named: "test-read") {}
        defer { executor.close() }
        let order = RunOrder()
        let started = DispatchSemaphore(value: 0), queued = DispatchSemaphore(value: 0)
        let first = Task(executorPreference: executor) {
            order.names.withLock { $0.append("first-before") }
            started.signal()
            queued.wait()
            await asyncStep(order)
            order.names.withLock { $0.append("first-after") }
        }
        await blockOnThread { started.wait() }
        let second = Task(executorPreference: executor) { order.names.withLock { $0.append("second") } }
        // The second task's first job is queued as it is created.
        queued.signal()
        await first.value
        await second.value
        #expect(order.names.withLock { $0 } == ["first-before", "step", "first-after", "second"])
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

/// An async function of its own (it does not suspend): entering it is where a task hops to
/// the executor it prefers if it is not on it.
@inline(never)
private func asyncStep(_ order: RunOrder) async {
    order.names.withLock { $0.append("step") }
}

/// Runs `body` on a thread of its own (it blocks), so Swift's pool is never held.
private func blockOnThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread { body(); continuation.resume() }.start()
    }
}

/// Checks `condition` every millisecond until it holds or `deadline` passes.
private func poll(until deadline: ContinuousClock.Instant, _ condition: () -> Bool) async {
    while !condition(), ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
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

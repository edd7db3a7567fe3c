import Dispatch
import Domain
import Foundation
@testable import Persistence
import RestaurantTesting
import Synchronization
import Testing

/// Overload bounded by time for the reads a write's use case makes (PlaceOrder reads the items
/// before it takes their stock): from a thread of Swift's pool such a read queues for one of the
/// store's read threads, and one that waited longer than the queue-time target is refused `busy`
/// unrun, as a write that waited for its commit is. Reads no client waits for are exempt.
@Suite struct ReadQueueTimeTests {
    @Test func aReadThatWaitedForAReadThreadPastTheTargetIsRefusedBusy() async throws {
        let directory = try TemporaryDirectory()
        let executor = OneThreadExecutor()
        let store = try SQLiteStore(path: directory.path + "/store.sqlite", events: nil, queueTimeTarget: .milliseconds(50), readExecutor: executor)
        let slow = try await holdTheReadThread(store, executor, forSeconds: 0.3)

        let outcome: String
        do {
            _ = try await store.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            outcome = "read"
        } catch let failure as RepositoryFailure {
            if case .busy(let reason) = failure, reason.contains("queue-time target") { outcome = "busy" } else { outcome = "\(failure)" }
        }
        try await slow.value
        #expect(outcome == "busy")
        #expect(store.refusedReads == 1)
        // A read that does not wait is served.
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "SELECT 2") } == 2)
        #expect(store.refusedReads == 1)
        try await store.close()
        executor.stop()
    }

    /// A read that would queue behind one that has waited past the target already is refused at
    /// once, without queueing (its wait would be longer still); when the backlog is within the
    /// target it queues and is served.
    @Test func aReadThatWouldQueueBehindAReadOverTheTargetIsRefusedBeforeItQueues() async throws {
        let directory = try TemporaryDirectory()
        let executor = OneThreadExecutor()
        let backlog = Mutex<Duration>(.milliseconds(51))
        let store = try SQLiteStore(
            path: directory.path + "/store.sqlite", events: nil, queueTimeTarget: .milliseconds(50), readExecutor: executor,
            readBacklog: { backlog.withLock { $0 } })
        let ran = Atomic<Int>(0)

        var outcome = "read"
        do {
            _ = try await store.read { db in ran.add(1, ordering: .relaxed); return try Int.fetchOne(db, sql: "SELECT 1") }
        } catch let failure as RepositoryFailure {
            if case .busy(let reason) = failure, reason.contains("51 ms behind") { outcome = "busy" } else { outcome = "\(failure)" }
        }
        #expect(outcome == "busy")
        #expect(ran.load(ordering: .relaxed) == 0, "the refused read never ran")
        #expect(store.refusedReads == 1)
        // An exempt read waits whatever the backlog.
        #expect(try await QueueTimeExemption.exempt { try await store.read { db in try Int.fetchOne(db, sql: "SELECT 2") } } == 2)

        backlog.withLock { $0 = .milliseconds(50) }
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "SELECT 3") } == 3)
        #expect(store.refusedReads == 1)
        try await store.close()
        executor.stop()
    }

    /// The live stream's reads of the log are no client's request: they wait as long as it takes.
    @Test func anExemptReadWaitsPastTheTargetAndIsServed() async throws {
        let directory = try TemporaryDirectory()
        let executor = OneThreadExecutor()
        let store = try SQLiteStore(path: directory.path + "/store.sqlite", events: nil, queueTimeTarget: .milliseconds(50), readExecutor: executor)
        let slow = try await holdTheReadThread(store, executor, forSeconds: 0.3)
        let value = try await QueueTimeExemption.exempt {
            try await store.read { db in try Int.fetchOne(db, sql: "SELECT 3") }
        }
        try await slow.value
        #expect(value == 3)
        #expect(store.refusedReads == 0)
        try await store.close()
        executor.stop()
    }
}

/// Starts a read on `executor`'s one thread that holds it for `seconds`; returns once it runs.
private func holdTheReadThread(_ store: SQLiteStore, _ executor: OneThreadExecutor, forSeconds seconds: Double) async throws -> Task<Void, any Error> {
    let flag = StartFlag()
    let slow = Task(executorPreference: executor) {
        _ = try await store.read { _ in
            flag.started.store(true, ordering: .releasing)
            Thread.sleep(forTimeInterval: seconds)
        }
    }
    try await waitUntil("the slow read runs") { flag.started.load(ordering: .acquiring) }
    return slow
}

/// Whether the slow read runs, shared with its body.
private final class StartFlag: Sendable {
    let started = Atomic<Bool>(false)
}

/// A task executor of one dedicated thread, marked for blocking reads (as svcd's read threads
/// are), running its jobs in order.
private final class OneThreadExecutor: TaskExecutor {
    private let jobs = Mutex<(queue: [UnownedJob], stopped: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            SQLiteStore.permitBlockingReadsOnThisThread()
            while true {
                wake.wait()
                let next = jobs.withLock { state -> UnownedJob?? in
                    if state.queue.isEmpty { return state.stopped ? .none : .some(nil) }
                    return .some(state.queue.removeFirst())
                }
                guard let job = next else { return }
                job?.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.queue.append(unowned) }
        wake.signal()
    }

    /// Ends the thread once its queue is empty.
    func stop() {
        jobs.withLock { $0.stopped = true }
        wake.signal()
    }
}

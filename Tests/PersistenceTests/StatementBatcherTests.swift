import Domain
@testable import Persistence
import RestaurantTesting
import Synchronization
import Testing

/// How the PostgreSQL store groups concurrent writes of one kind into shared statements: which
/// items go together, that each caller gets its own item's outcome, and that a database that is
/// away answers the waiting callers at once.
struct StatementBatcherTests {
    /// A statement that records the items of every call and, for its first call, waits until
    /// the test opens it, so that the test can make items queue behind it.
    private final class GatedStatement: Sendable {
        let calls = Mutex<[[Int]]>([])
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let failure: (any Error)?

        init(failure: (any Error)? = nil) {
            self.failure = failure
        }

        func run(_ items: [Int]) async throws -> [Int] {
            let first = calls.withLock { calls in
                calls.append(items)
                return calls.count == 1
            }
            if first {
                await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
            }
            if let failure { throw failure }
            return items.map { $0 * 10 }
        }

        /// Lets the first call finish, once it has started waiting.
        func open() async throws {
            try await waitUntil("the first statement runs") { gate.withLock { $0 != nil } }
            gate.withLock { $0!.resume() }
        }
    }

    @Test func aLoneWriteGoesAtOnceAndWritesArrivingMeanwhileGoTogetherNext() async throws {
        let statement = GatedStatement()
        let batcher = StatementBatcher<Int, Int>(maximumBatches: 1, maximumItems: 64) { try await statement.run($0) }
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            group.addTask { (0, try await batcher.submit(0)) }
            try await waitUntil("the lone write's statement runs") { statement.calls.withLock { $0.count == 1 } }
            for item in 1...10 {
                group.addTask { (item, try await batcher.submit(item)) }
            }
            try await waitUntil("ten writes wait") { batcher.waitingCount == 10 }
            try await statement.open()
            var outcomes: [Int: Int] = [:]
            for try await (item, outcome) in group {
                outcomes[item] = outcome
            }
            #expect(outcomes == Dictionary(uniqueKeysWithValues: (0...10).map { ($0, $0 * 10) }), "each caller gets its own item's outcome")
        }
        let calls = statement.calls.withLock { $0 }
        #expect(calls.count == 2)
        #expect(calls.first == [0])
        #expect(calls.last?.sorted() == Array(1...10))
    }

    @Test func writesBeyondOneStatementsRowLimitGoInSeveralStatements() async throws {
        let statement = GatedStatement()
        let batcher = StatementBatcher<Int, Int>(maximumBatches: 1, maximumItems: 4) { try await statement.run($0) }
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask { try await batcher.submit(0) }
            try await waitUntil("the first statement runs") { statement.calls.withLock { $0.count == 1 } }
            for item in 1...10 {
                group.addTask { try await batcher.submit(item) }
            }
            try await waitUntil("ten writes wait") { batcher.waitingCount == 10 }
            try await statement.open()
            let sum = try await group.reduce(0, +)
            #expect(sum == (0...10).reduce(0, +) * 10)
        }
        #expect(statement.calls.withLock { $0.map(\.count) } == [1, 4, 4, 2])
        #expect(batcher.waitingCount == 0)
    }

    @Test func whenTheDatabaseIsAwayTheWaitingWritesAreAnsweredUnavailableWithoutAStatementOfTheirOwn() async throws {
        let statement = GatedStatement(failure: RepositoryFailure.unavailable(reason: "no connection to PostgreSQL could be had in time"))
        let batcher = StatementBatcher<Int, Int>(maximumBatches: 1, maximumItems: 64) { try await statement.run($0) }
        let refusals = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { await Self.isUnavailable { try await batcher.submit(0) } }
            try await waitUntil("the first statement runs") { statement.calls.withLock { $0.count == 1 } }
            for item in 1...5 {
                group.addTask { await Self.isUnavailable { try await batcher.submit(item) } }
            }
            try await waitUntil("five writes wait") { batcher.waitingCount == 5 }
            try await statement.open()
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(refusals == Array(repeating: true, count: 6))
        #expect(statement.calls.withLock { $0.count } == 1, "nothing more was sent to a database that is away")
    }

    private static func isUnavailable(_ body: () async throws -> Int) async -> Bool {
        do {
            _ = try await body()
            return false
        } catch RepositoryFailure.unavailable {
            return true
        } catch {
            return false
        }
    }
}

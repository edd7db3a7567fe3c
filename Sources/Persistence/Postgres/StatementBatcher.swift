import Domain
import Synchronization

/// Runs concurrent one-statement operations of one kind (writes, and reads by id:
/// ``PostgresRowLookup``) as shared statements: while ``maximumBatches`` statements are running,
/// newly arriving items wait and go together, up to ``maximumItems`` at a time, in the next
/// statement. A lone item goes at once, alone, so an idle store adds no latency; under load the
/// database parses, executes and commits one statement for many rows instead of one per row,
/// which is most of its CPU per write.
///
/// A batch of writes is still one atomic step decided by the database: the statement checks each row
/// against the constraints (a unique index refuses a row, not the batch) and commits them
/// together, and every item's caller is answered only after that commit returned. A batch the
/// server refuses as a whole (an error naming a constraint the statement does not absorb) wrote
/// nothing, and its items are run again one by one so that each gets its own answer. When the
/// database is away, the items waiting for a statement are answered `unavailable` with the
/// running batch, rather than each waiting for a connection in turn.
final class StatementBatcher<Item: Sendable, Outcome: Sendable>: Sendable {
    /// Runs one statement for `items` and returns each item's outcome, in the same order.
    typealias Statement = @Sendable (_ items: [Item]) async throws -> [Outcome]

    private struct Waiter {
        let item: Item
        let continuation: CheckedContinuation<Outcome, any Error>
    }

    private struct State {
        var running = 0
        var waiting: [Waiter] = []
    }

    /// Statements running at once, at most; more items wait for one of them to end.
    let maximumBatches: Int
    /// Items in one statement, at most.
    let maximumItems: Int
    private let statement: Statement
    private let state = Mutex(State())

    /// A batcher running `statement`, at most `maximumBatches` at once with at most
    /// `maximumItems` items each.
    init(maximumBatches: Int, maximumItems: Int, statement: @escaping Statement) {
        precondition(maximumBatches > 0 && maximumItems > 0, "a batcher needs room for one statement of one item")
        self.maximumBatches = maximumBatches
        self.maximumItems = maximumItems
        self.statement = statement
    }

    /// Items waiting for a statement now (for tests).
    var waitingCount: Int {
        state.withLock { $0.waiting.count }
    }

    /// Runs `item` in a statement (alone when the store is idle) and returns its outcome once
    /// that statement committed.
    func submit(_ item: Item) async throws -> Outcome {
        let leads = state.withLock { state in
            guard state.running < maximumBatches else { return false }
            state.running += 1
            return true
        }
        guard leads else {
            return try await withCheckedThrowingContinuation { continuation in
                let waiter = Waiter(item: item, continuation: continuation)
                // A statement may have ended between the check above and now, leaving a free slot
                // and nobody to take this item: then it starts a statement itself.
                let batch: [Waiter]? = state.withLock { state in
                    state.waiting.append(waiter)
                    guard state.running < maximumBatches else { return nil }
                    state.running += 1
                    return take(&state)
                }
                if let batch { startDraining(batch) }
            }
        }
        // The caller's own task runs the statement: no hop to another task when it goes alone.
        let outcome: Result<Outcome, any Error>
        do {
            outcome = .success(try await run([item])[0].get())
        } catch {
            outcome = .failure(error)
        }
        if let next = handOver(after: [outcome]) { startDraining(next) }
        return try outcome.get()
    }

    /// Runs `batch` and then every batch waiting behind it, in a task of its own, until none waits.
    private func startDraining(_ batch: [Waiter]) {
        Task {
            var batch = batch
            while true {
                let outcomes = await run(batch.map(\.item))
                for (waiter, outcome) in zip(batch, outcomes) {
                    waiter.continuation.resume(with: outcome)
                }
                guard let next = handOver(after: outcomes) else { return }
                batch = next
            }
        }
    }

    /// After a statement ended with `outcomes`: the next batch for the freed slot, or `nil` (the
    /// slot is released) when nothing waits. When the database was away, the waiting items are
    /// answered the same (nothing of them was written) instead of each waiting for a connection.
    private func handOver(after outcomes: [Result<Outcome, any Error>]) -> [Waiter]? {
        if let error = outcomes.lazy.compactMap(Self.unavailability).first {
            let abandoned = state.withLock { state in
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in abandoned {
                waiter.continuation.resume(throwing: error)
            }
        }
        return state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return take(&state)
        }
    }

    private static func unavailability(_ outcome: Result<Outcome, any Error>) -> (any Error)? {
        guard case .failure(let error) = outcome, case .unavailable? = error as? RepositoryFailure else { return nil }
        return error
    }

    private func take(_ state: inout State) -> [Waiter] {
        let count = min(maximumItems, state.waiting.count)
        defer { state.waiting.removeFirst(count) }
        return Array(state.waiting.prefix(count))
    }

    /// Each item's outcome of one statement for `items`; one by one when the server refused the
    /// statement as a whole.
    private func run(_ items: [Item]) async -> [Result<Outcome, any Error>] {
        do {
            let outcomes = try await statement(items)
            precondition(outcomes.count == items.count, "a batch statement answered \(outcomes.count) of \(items.count) items")
            return outcomes.map { .success($0) }
        } catch where items.count > 1 && PostgresFailure.isStatementRefusal(error) {
            var outcomes: [Result<Outcome, any Error>] = []
            for item in items {
                do {
                    outcomes.append(.success(try await statement([item])[0]))
                } catch {
                    outcomes.append(.failure(error))
                }
            }
            return outcomes
        } catch {
            return Array(repeating: .failure(error), count: items.count)
        }
    }
}

import Domain

/// How a racing call ended.
enum RaceOutcome: Sendable, Equatable {
    case succeeded
    case refused(DomainError)
    case failed(String)

    init(_ body: () async throws -> Void) async {
        do {
            try await body()
            self = .succeeded
        } catch let error as DomainError {
            self = .refused(error)
        } catch {
            self = .failed(String(describing: error))
        }
    }
}

/// Runs `count` calls of `body` concurrently and returns how each ended, in index order.
func race(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async -> [RaceOutcome] {
    await withTaskGroup(of: (Int, RaceOutcome).self) { group in
        for index in 0..<count {
            group.addTask { (index, await RaceOutcome { try await body(index) }) }
        }
        var outcomes = Array(repeating: RaceOutcome.failed("not run"), count: count)
        for await (index, outcome) in group { outcomes[index] = outcome }
        return outcomes
    }
}

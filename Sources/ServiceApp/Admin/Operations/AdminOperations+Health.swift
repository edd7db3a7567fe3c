import WireContract
import WireJSON

extension AdminOperations {
    /// `health`: healthy when the store answers a trivial read; the checks name the store's
    /// answer, the number of use-case endpoints and whether use cases take requests.
    func health() async -> JSONValue {
        typealias Key = AdminOperation.Result
        var checks: [(String, JSONValue)] = []
        var healthy = true
        do {
            try await store.ping()
            checks.append((Key.store, .string(store.kind == .memory ? "in memory" : "ok")))
        } catch {
            healthy = false
            checks.append((Key.store, .string("failed: \(error)")))
        }
        checks.append((Key.useCaseEndpoints, .int(useCaseEndpoints.count)))
        checks.append((Key.accepting, .bool(!availability.isRefusingRequests)))
        return object([(Key.healthy, .bool(healthy)), (Key.checks, object(checks))])
    }
}

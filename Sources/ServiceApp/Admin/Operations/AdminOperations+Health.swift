import WireContract
import WireJSON

extension AdminOperations {
    /// `health`: healthy when the store answers a trivial read and its storage is not full; the
    /// checks name the store's answer (``AdminOperation/StoreCheck``), the number of use-case
    /// endpoints and whether use cases take requests.
    func health() async -> JSONValue {
        typealias Key = AdminOperation.Result
        typealias Check = AdminOperation.StoreCheck
        var checks: [(String, JSONValue)] = []
        var healthy = true
        do {
            try await store.ping()
            if store.isFull {
                healthy = false
                checks.append((Key.store, .string(Check.full)))
            } else {
                checks.append((Key.store, .string(store.kind == .memory ? Check.inMemory : Check.ok)))
            }
        } catch {
            healthy = false
            checks.append((Key.store, .string(Check.failedPrefix + "\(error)")))
        }
        checks.append((Key.useCaseEndpoints, .int(useCaseEndpoints.count)))
        checks.append((Key.accepting, .bool(!availability.isRefusingRequests)))
        return object([(Key.healthy, .bool(healthy)), (Key.checks, object(checks))])
    }
}

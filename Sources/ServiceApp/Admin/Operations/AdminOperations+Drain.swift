import WireContract
import WireJSON

extension AdminOperations {
    /// `drain`: every use case answers `unavailable` (no effect, safe to retry) until `resume`.
    func drain() -> JSONValue {
        availability.drain()
        logger.notice("draining: use cases answer unavailable until resumed")
        return object([(AdminOperation.Result.state, .string(serviceState.rawValue))])
    }
}

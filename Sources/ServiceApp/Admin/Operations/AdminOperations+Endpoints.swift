import WireContract
import WireJSON

extension AdminOperations {
    /// `endpoints`: the admin endpoint's, the event endpoints' and each use case's bound address,
    /// under the names of `endpoints.json`, use cases in endpoint order.
    func endpoints() -> JSONValue {
        let useCases = UseCaseName.allCases.compactMap { name in useCaseAddresses[name].map { (name.rawValue, JSONValue.string($0)) } }
        return object([
            (EndpointsFile.Key.admin, .string(late.adminAddress)), (EndpointsFile.Key.events, .string(eventStreamAddress)),
            (EndpointsFile.Key.eventLog, .string(eventLogAddress)), (EndpointsFile.Key.useCases, object(useCases)),
        ])
    }
}

import Transport
import WireJSON

extension AdminOperations {
    /// `stats`: per use case, in endpoint order (temporary: in-flight counts only).
    func statistics(format: JSONValue?) throws -> JSONValue {
        var members: [(String, JSONValue)] = []
        for endpoint in endpoints {
            members.append((endpoint.name.rawValue, .object(JSONObject([("inFlight", .int(endpoint.counters.inFlight))]))))
        }
        return .object(JSONObject([("useCases", .object(JSONObject(members)))]))
    }
}

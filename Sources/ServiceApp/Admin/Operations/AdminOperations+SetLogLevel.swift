import Logging
import Transport
import WireContract
import WireJSON

extension AdminOperations {
    /// `setLogLevel`: changes the log level to `level`; `unavailable` when the service's level is
    /// fixed (built without a ``LogLevelControl``).
    func setLogLevel(_ params: JSONObject) throws -> JSONValue {
        guard let logLevel else { throw WireError(.unavailable, "this service's log level is fixed") }
        let parameter = AdminOperation.Parameter.level
        guard let name = params[parameter]?.stringValue, let level = Logger.Level(rawValue: name) else {
            throw WireError(.invalidInput, "\(parameter) must be one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        logLevel.level = level
        logger.notice("log level set", metadata: ["level": "\(level)"])
        return object([(AdminOperation.Result.level, .string(level.rawValue))])
    }
}

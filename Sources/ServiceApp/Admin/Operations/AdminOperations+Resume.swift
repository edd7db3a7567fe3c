import WireContract
import WireJSON

extension AdminOperations {
    /// `resume`: use cases take requests again after `drain`.
    func resume() -> JSONValue {
        availability.resume()
        logger.notice("resumed")
        return object([(AdminOperation.Result.state, .string(serviceState.rawValue))])
    }
}

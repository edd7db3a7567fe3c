import WireContract
import WireJSON

extension AdminOperations {
    /// `shutdown`: answers `stopping`, then starts the same graceful shutdown as SIGTERM.
    func shutdown() -> JSONValue {
        logger.notice("shutdown requested through the admin endpoint")
        // After the reply is queued: the admin endpoint is shut down last, so it goes out.
        let late = self.late
        Task { await late.triggerShutdown() }
        return object([(AdminOperation.Result.state, .string(AdminOperation.ServiceState.stopping.rawValue))])
    }
}

import Foundation

extension EndpointsFile {
    /// How waiting for a process's `endpoints.json` ended.
    public enum Wait: Sendable {
        /// The process wrote it.
        case written(EndpointsFile)
        /// The process ended first.
        case processEnded
        /// Neither happened within the timeout.
        case timedOut
    }

    /// Polls `dataDirectory` every `interval` until it holds an `endpoints.json` written by `pid`
    /// (one left by an earlier process names another pid), `isRunning` says the process has
    /// ended, or `timeout` has passed. How svcd's starters (tests, benchmarks) learn that it serves.
    public static func wait(
        in dataDirectory: String, writtenBy pid: Int32, timeout: Duration, interval: Duration = .milliseconds(10),
        isRunning: () -> Bool = { true }
    ) async throws -> Wait {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if let file = try? read(from: dataDirectory), file.pid == pid { return .written(file) }
            if !isRunning() { return .processEnded }
            if ContinuousClock.now >= deadline { return .timedOut }
            try await Task.sleep(for: interval)
        }
    }
}

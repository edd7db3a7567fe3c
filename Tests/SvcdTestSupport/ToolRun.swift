import ChildProcess
import Foundation
import Testing

/// What a short-lived tool printed and how it exited.
public struct ToolOutcome: Sendable {
    /// Exit status, or `nil` when it did not exit within the timeout (it was killed).
    public let status: Int32?
    /// Everything written to stdout.
    public let stdout: String
    /// Everything written to stderr.
    public let stderr: String
}

/// Runs a tool to completion (after `timeout` seconds: SIGTERM, then SIGKILL 10 s later),
/// capturing stdout and stderr through files so a chatty tool cannot block on a full pipe.
public func runTool(_ executable: String, _ arguments: [String], timeout seconds: Double) async throws -> ToolOutcome {
    let completed = try await SpawnedProcess.run(executable, arguments, timeout: .milliseconds(Int(seconds * 1000)), stopSignal: SIGTERM)
    // nil when it had to be stopped; a signal that ended it by itself counts as its status.
    var status: Int32?
    switch completed.ending {
    case .exited(let code)?: status = code
    case .signalled(let signal)?: status = signal
    case nil: status = nil
    }
    return ToolOutcome(status: status, stdout: completed.stdout, stderr: completed.stderr)
}

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

/// Runs a tool to completion (killing it after `timeout` seconds), capturing stdout and stderr
/// through files so a chatty tool cannot block on a full pipe.
public func runTool(_ executable: String, _ arguments: [String], timeout seconds: Double) async throws -> ToolOutcome {
    let files = FileManager.default
    let directory = files.temporaryDirectory.appendingPathComponent("integration-tool-\(UUID().uuidString)")
    try files.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? files.removeItem(at: directory) }
    let outPath = directory.appendingPathComponent("out").path
    let errPath = directory.appendingPathComponent("err").path
    _ = files.createFile(atPath: outPath, contents: nil)
    _ = files.createFile(atPath: errPath, contents: nil)
    let process = try SpawnedProcess.spawn(executable, arguments, stdout: .file(outPath), stderr: .file(errPath))
    let ending = await process.waitForEnd(timeout: seconds)
    if ending == nil {
        process.send(signal: SIGTERM)
        if await process.waitForEnd(timeout: 10) == nil {
            process.send(signal: SIGKILL)
            await process.waitForEnd(timeout: 10)
        }
    }
    // nil when it had to be stopped; a signal that ended it by itself counts as its status.
    var status: Int32?
    switch ending {
    case .exited(let code)?: status = code
    case .signalled(let signal)?: status = signal
    case nil: status = nil
    }
    return ToolOutcome(
        status: status,
        stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    )
}


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
    let out = try #require(FileHandle(forWritingAtPath: outPath))
    let err = try #require(FileHandle(forWritingAtPath: errPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    try? out.close()
    try? err.close()
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
    while process.isRunning && clock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
    }
    var status: Int32?
    if process.isRunning {
        process.terminate()
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
    } else {
        status = process.terminationStatus
    }
    return ToolOutcome(
        status: status,
        stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    )
}


import ChildProcess
import Foundation
import WireContract

#if canImport(Glibc)
import Glibc
#endif

/// One svcd child process, as the tests and the benchmark tools start it: `svcd --data-dir DIR
/// --port-base N` plus the caller's arguments, stdout and stderr appended to one log file, ready
/// once `DIR/endpoints.json` names its pid. The one place that knows how svcd is launched and how
/// to tell that it serves.
public final class SvcdProcess: Sendable {
    /// The running child.
    public let process: SpawnedProcess
    /// Its data directory.
    public let dataDirectory: String
    /// The file its stdout and stderr go to.
    public let logPath: String

    private init(process: SpawnedProcess, dataDirectory: String, logPath: String) {
        self.process = process
        self.dataDirectory = dataDirectory
        self.logPath = logPath
    }

    /// The child's process id.
    public var pid: pid_t { process.pid }

    /// Whether it has not ended yet.
    public var isRunning: Bool { process.isRunning }

    /// Starts `executable --data-dir dataDirectory --port-base portBase` plus `arguments`, its
    /// output appended to `logPath` (created if missing); returns at once (see
    /// ``waitUntilServing(timeout:interval:)``). The data directory is created if missing.
    public static func spawn(
        executable: String, dataDirectory: String, portBase: Int = 0, arguments: [String], logPath: String,
        environment: [String: String]? = nil, launcher: [String] = []
    ) throws -> SvcdProcess {
        let files = FileManager.default
        try files.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        if !files.fileExists(atPath: logPath) { _ = files.createFile(atPath: logPath, contents: nil) }
        let svcdArguments = ["--data-dir", dataDirectory, "--port-base", String(portBase)] + arguments
        let process = try SpawnedProcess.spawn(
            launcher.first ?? executable, launcher.isEmpty ? svcdArguments : Array(launcher.dropFirst()) + [executable] + svcdArguments,
            environment: environment,
            stdout: .file(logPath), stderr: .file(logPath)
        )
        return SvcdProcess(process: process, dataDirectory: dataDirectory, logPath: logPath)
    }

    /// Waits until svcd's `endpoints.json` names this process, polling every `interval`; fails
    /// (``ServerProcessFailure``, with the log's last lines) when the process ends first or
    /// `timeout` passes. The process keeps running either way.
    public func waitUntilServing(timeout: Duration, interval: Duration = .milliseconds(10)) async throws -> EndpointsFile {
        switch try await EndpointsFile.wait(in: dataDirectory, writtenBy: pid, timeout: timeout, interval: interval, isRunning: { process.isRunning }) {
        case .written(let file):
            return file
        case .processEnded:
            throw ServerProcessFailure("svcd \(pid) ended (\(process.ended.map { "\($0)" } ?? "?")) before it served; \(logPath):\n\(logTail())")
        case .timedOut:
            throw ServerProcessFailure("svcd \(pid) wrote no \(EndpointsFile.fileName) within \(timeout); \(logPath):\n\(logTail())")
        }
    }

    /// The log's last `lines` lines.
    public func logTail(lines: Int = 20) -> String {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// How many bytes the log holds now (to read what comes after with ``logLines(after:)``).
    public var logSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: logPath))?[.size] as? Int) ?? 0
    }

    /// The log's lines after its first `offset` bytes.
    public func logLines(after offset: Int) -> [Substring] {
        guard let handle = FileHandle(forReadingAtPath: logPath) else { return [] }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil, let data = try? handle.readToEnd() else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    /// SIGTERM (svcd answers what is in flight, closes its store and exits 0), then waits for
    /// the exit; SIGKILL after `patience`. Whether it had to be killed.
    @discardableResult
    public func stop(patience: Duration) async -> Bool {
        await process.stop(patience: patience).killed
    }

    /// Where svcd is when it was built with the running executable: in the same directory.
    public static var pathNextToThisOne: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("svcd").path
    }

    /// `given`, or the svcd next to the running executable (``pathNextToThisOne``); `nil` when
    /// there is no executable file there.
    public static func executable(nextToThisOne given: String? = nil) -> String? {
        let path = given ?? pathNextToThisOne
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}

/// A server did not start or a tool on it failed: svcd ended or wrote no `endpoints.json` in time,
/// postgres-dev.sh or psql failed.
public struct ServerProcessFailure: Error, CustomStringConvertible {
    /// What happened, with the end of the server's log or the tool's stderr.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

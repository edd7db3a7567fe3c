import ChildProcess
import Foundation

/// A command-line tool (postgres-dev.sh, psql, pgbench) run to completion, its output captured
/// through files.
struct ChildTool {
    /// What a run printed and how it ended.
    struct Output: Sendable {
        /// Exit status; `nil` when a signal ended the tool.
        let status: Int32?
        let stdout: String
        let stderr: String

        /// The output, or a failure naming `what` with the tool's stderr.
        func succeeded(_ what: String) throws -> Output {
            guard status == 0 else {
                throw BenchFailure("\(what) failed (\(status.map { "exit \($0)" } ?? "killed")): \(stderr)\(stdout.isEmpty ? "" : "\n" + stdout)")
            }
            return self
        }
    }

    /// This process's environment without the caller's libpq settings (`PG…`), which must not
    /// redirect the tools to another server.
    static var cleanEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { key, _ in !key.hasPrefix("PG") }
    }

    /// Runs `executable` with `arguments` in ``cleanEnvironment``, waiting by polling how it
    /// ended (``SpawnedProcess/waitForEnd(timeout:)``: the task sleeps, no cooperative thread is
    /// blocked); kills it after `timeout`. `started` gets its process id once it runs (for
    /// cleanup on Ctrl-C).
    static func run(
        _ executable: String, _ arguments: [String], timeout: Duration = .seconds(120),
        started: @Sendable (Int32) -> Void = { _ in }
    ) async throws -> Output {
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("storebench-tool-\(UUID().uuidString)")
        try files.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("out").path
        let errPath = scratch.appendingPathComponent("err").path
        guard files.createFile(atPath: outPath, contents: nil), files.createFile(atPath: errPath, contents: nil)
        else { throw BenchFailure("cannot create output files in \(scratch.path)") }

        let process = try SpawnedProcess.spawn(
            executable, arguments, environment: cleanEnvironment, stdout: .file(outPath), stderr: .file(errPath)
        )
        started(process.pid)
        var ending = await process.waitForEnd(timeout: timeout)
        if ending == nil {
            process.send(signal: SIGKILL)
            ending = await process.waitForEnd(timeout: .seconds(30))
        }
        var status: Int32?
        if case .exited(let code)? = ending { status = code }
        return Output(
            status: status,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        )
    }
}

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

    /// Runs `executable` with `arguments`, waiting on its termination handler (not a cooperative
    /// thread); kills it after `timeout`. `started` gets its process id once it runs (for
    /// cleanup on Ctrl-C).
    static func run(
        _ executable: String, _ arguments: [String], timeout: Duration = .seconds(120),
        started: @escaping @Sendable (Int32) -> Void = { _ in }
    ) async throws -> Output {
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("storebench-tool-\(UUID().uuidString)")
        try files.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("out").path
        let errPath = scratch.appendingPathComponent("err").path
        guard files.createFile(atPath: outPath, contents: nil), files.createFile(atPath: errPath, contents: nil),
              let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath)
        else { throw BenchFailure("cannot create output files in \(scratch.path)") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = cleanEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err

        var timer: Task<Void, Never>?
        let (reason, status) = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(Process.TerminationReason, Int32), any Error>) in
            process.terminationHandler = { ended in
                continuation.resume(returning: (ended.terminationReason, ended.terminationStatus))
            }
            do {
                try runUnblocked(process)
            } catch {
                continuation.resume(throwing: error)
                return
            }
            let pid = process.processIdentifier
            started(pid)
            timer = Task {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                _ = kill(pid, SIGKILL)
            }
        }
        timer?.cancel()
        try? out.close()
        try? err.close()
        return Output(
            status: reason == .exit ? status : nil,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        )
    }
}

import ChildProcess
import Foundation

/// A command-line tool (postgres-dev.sh, psql, pgbench) run to completion, its output captured
/// through files.
struct ChildTool {
    /// This process's environment without the caller's libpq settings (`PG…`), which must not
    /// redirect the tools to another server.
    static var cleanEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { key, _ in !key.hasPrefix("PG") }
    }

    /// Runs `executable` with `arguments` in ``cleanEnvironment`` to completion
    /// (``SpawnedProcess/run(_:_:environment:timeout:stopSignal:started:)``: no cooperative thread
    /// is blocked); kills it after `timeout`. `started` gets its process id once it runs (for
    /// cleanup on Ctrl-C).
    static func run(
        _ executable: String, _ arguments: [String], timeout: Duration = .seconds(120),
        started: @Sendable (Int32) -> Void = { _ in }
    ) async throws -> CompletedProcess {
        try await SpawnedProcess.run(executable, arguments, environment: cleanEnvironment, timeout: timeout, started: started)
    }
}

extension CompletedProcess {
    /// This run, or a failure naming `what` with the tool's stderr, unless it exited with 0.
    func succeeded(_ what: String) throws -> CompletedProcess {
        guard exitStatus == 0 else {
            throw BenchFailure("\(what) failed (\(exitStatus.map { "exit \($0)" } ?? "killed")): \(stderr)\(stdout.isEmpty ? "" : "\n" + stdout)")
        }
        return self
    }
}

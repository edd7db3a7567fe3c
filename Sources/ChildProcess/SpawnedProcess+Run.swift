import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a child run to completion by ``SpawnedProcess/run(_:_:environment:timeout:stopSignal:started:)``
/// printed and how it ended.
public struct CompletedProcess: Sendable {
    /// How it ended by itself; `nil` when it still ran at the timeout and was stopped.
    public let ending: SpawnedProcess.Ending?
    /// Everything it wrote to stdout.
    public let stdout: String
    /// Everything it wrote to stderr.
    public let stderr: String

    /// Its exit status; `nil` when a signal ended it or it was stopped.
    public var exitStatus: Int32? {
        if case .exited(let status)? = ending { return status }
        return nil
    }
}

extension SpawnedProcess {
    /// Runs `executable` with `arguments` to completion, its stdout and stderr captured through
    /// files in a temporary directory (a chatty child cannot block on a full pipe), waiting by
    /// polling (``waitForEnd(timeout:)``). A child still running after `timeout` is stopped:
    /// `stopSignal`, then SIGKILL after 10 s (``stop(sending:patience:)``). `started` gets the
    /// child's pid as soon as it runs (for cleanup on Ctrl-C). `environment` replaces the
    /// inherited one when given.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration,
        stopSignal: Int32 = SIGKILL, started: (pid_t) -> Void = { _ in }
    ) async throws -> CompletedProcess {
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("spawned-process-\(UUID().uuidString)")
        try files.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("out").path
        let errPath = scratch.appendingPathComponent("err").path
        let process = try spawn(executable, arguments, environment: environment, stdout: .file(outPath), stderr: .file(errPath))
        started(process.pid)
        let ending = await process.waitForEnd(timeout: timeout)
        if ending == nil { await process.stop(sending: stopSignal, patience: .seconds(10)) }
        return CompletedProcess(
            ending: ending,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        )
    }
}

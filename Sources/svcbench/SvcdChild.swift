import ChildProcess
import Foundation
import WireContract

#if canImport(Glibc)
import Glibc
#endif

/// One svcd child process for `--curve`: `svcd --data-dir DIR --port-base 0 --seed-sample
/// --log-level warning` plus the given arguments, its stdout and stderr appended to
/// `DIR.log`. Ready once DIR/endpoints.json names its pid.
final class SvcdChild: Sendable {
    private let process: SpawnedProcess
    /// Its data directory (removed by ``stop()``).
    let dataDirectory: String
    /// Its endpoints.json, read once it was written.
    let endpoints: EndpointsFile

    private init(process: SpawnedProcess, dataDirectory: String, endpoints: EndpointsFile) {
        self.process = process
        self.dataDirectory = dataDirectory
        self.endpoints = endpoints
    }

    /// The child's process id.
    var pid: pid_t { process.pid }

    /// The address of `useCase`.
    func address(_ useCase: UseCaseName) throws -> String {
        guard let address = endpoints.useCases[useCase] else {
            throw BenchError("svcd \(pid): endpoints.json has no \(useCase.rawValue)")
        }
        return address
    }

    /// Starts svcd and waits (up to 120 s) until it serves.
    static func launch(executable: String, dataDirectory: String, arguments: [String]) async throws -> SvcdChild {
        let logPath = dataDirectory + ".log"
        let argumentList = ["--data-dir", dataDirectory, "--port-base", "0", "--seed-sample", "--log-level", "warning"] + arguments
        let process = try SpawnedProcess.spawn(executable, argumentList, stdout: .file(logPath), stderr: .file(logPath))
        switch try await EndpointsFile.wait(
            in: dataDirectory, writtenBy: process.pid, timeout: .seconds(120), interval: .milliseconds(20), isRunning: { process.isRunning }
        ) {
        case .written(let file):
            return SvcdChild(process: process, dataDirectory: dataDirectory, endpoints: file)
        case .processEnded:
            throw BenchError("svcd ended (\(process.ended.map { "\($0)" } ?? "?")) before it served; see \(logPath)")
        case .timedOut:
            break
        }
        await process.stop(sending: SIGKILL, patience: .seconds(10))
        throw BenchError("svcd wrote no endpoints.json within 120 s; see \(logPath)")
    }

    /// SIGTERM, then waits for the exit (SIGKILL after 30 s), then removes the data directory
    /// and the log. Idempotent.
    func stop() async {
        if await process.stop(patience: .seconds(30)).killed {
            FileHandle.standardError.write(Data("svcbench: svcd \(pid) did not stop within 30 s; killed\n".utf8))
        }
        try? FileManager.default.removeItem(atPath: dataDirectory)
        try? FileManager.default.removeItem(atPath: dataDirectory + ".log")
    }
}

import ChildProcess
import Foundation
import Synchronization
import WireContract
import WireJSON

/// One svcd child process, with ephemeral ports and its own data directory (keys and
/// endpoints.json, and with SQLite the store). Its stdout and stderr are appended to `svcd.log`
/// in that directory.
final class SvcdInstance: Sendable {
    private let process: SpawnedProcess
    /// svcd's data directory.
    let dataDirectory: String
    /// endpoints.json once svcd is ready.
    private let endpoints = Mutex<EndpointsFile?>(nil)

    private init(process: SpawnedProcess, dataDirectory: String) {
        self.process = process
        self.dataDirectory = dataDirectory
    }

    /// The child's process id.
    var pid: Int32 { process.pid }

    /// The svcd executable: `given`, or the one next to this executable; fails when it is not
    /// there.
    static func executable(_ given: String?) throws -> String {
        let path = given ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("svcd").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchFailure("no svcd at \(path): build it (swift build -c release --product svcd) or pass --svcd")
        }
        return path
    }

    /// Starts `executable --store postgres --database-url URL --port-base 0 --data-dir DIR
    /// --seed-sample --log-level warning` plus `arguments`, and waits until its endpoints.json
    /// names it. `started` gets the process id as soon as it runs (for cleanup on Ctrl-C).
    static func launch(
        executable: String, databaseURL: String, dataDirectory: String, arguments: [String],
        started: @Sendable (Int32) -> Void
    ) async throws -> SvcdInstance {
        try await launch(
            executable: executable, store: ["--store", "postgres", "--database-url", databaseURL], dataDirectory: dataDirectory,
            arguments: arguments, started: started
        )
    }

    /// Starts `executable STORE --port-base 0 --data-dir DIR --seed-sample --log-level warning`
    /// plus `arguments` (`store`: `--store sqlite`, or postgres and its URL), and waits until
    /// its endpoints.json names it.
    static func launch(
        executable: String, store: [String], dataDirectory: String, arguments: [String], started: @Sendable (Int32) -> Void
    ) async throws -> SvcdInstance {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let logPath = dataDirectory + "/svcd.log"
        let process = try SpawnedProcess.spawn(
            executable,
            store + ["--port-base", "0", "--data-dir", dataDirectory, "--seed-sample", "--log-level", "warning"] + arguments,
            environment: ChildTool.cleanEnvironment, stdout: .file(logPath), stderr: .file(logPath)
        )
        started(process.pid)
        let instance = SvcdInstance(process: process, dataDirectory: dataDirectory)
        do {
            let found = try await instance.waitForEndpoints()
            instance.endpoints.withLock { $0 = found }
        } catch {
            process.send(signal: SIGKILL)
            let tail = ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").suffix(20).joined(separator: "\n")
            throw BenchFailure("svcd (\(dataDirectory)) did not start: \(error)\n\(tail)")
        }
        return instance
    }

    /// The address of `useCase`.
    func address(_ useCase: UseCaseName) throws -> String {
        guard let address = endpoints.withLock({ $0?.useCases[useCase] }) else { throw BenchFailure("svcd's endpoints.json lacks \(useCase.rawValue)") }
        return address
    }

    /// The live event stream's address.
    func eventStream() throws -> String {
        guard let address = endpoints.withLock({ $0?.events }) else { throw BenchFailure("svcd's endpoints.json lacks \(EndpointsFile.Key.events)") }
        return address
    }

    /// SIGTERM (svcd answers what is in flight, closes its pool and exits), then waits for the
    /// exit; SIGKILL after `patience`.
    func stop(patience: Duration = .seconds(20)) async {
        if await process.stop(patience: patience).killed {
            FileHandle.standardError.write(Data("storebench: svcd \(pid) did not stop within \(patience); killed\n".utf8))
        }
    }

    private func waitForEndpoints() async throws -> EndpointsFile {
        switch try await EndpointsFile.wait(in: dataDirectory, writtenBy: pid, timeout: .seconds(120), isRunning: { process.isRunning }) {
        case .written(let file): return file
        case .processEnded: throw BenchFailure("svcd exited")
        case .timedOut: throw BenchFailure("no \(EndpointsFile.fileName) naming pid \(pid) within 120 s")
        }
    }
}

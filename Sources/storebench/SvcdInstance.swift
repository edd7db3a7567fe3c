import ChildProcess
import Foundation
import ServerProcesses
import WireContract

/// One svcd child of a storebench run: an ``SvcdProcess`` with ephemeral ports, its own data
/// directory (keys and endpoints.json, and with SQLite the store), `--seed-sample --log-level
/// warning`, logging to `svcd.log` in that directory, and the endpoints it serves.
struct SvcdInstance: Sendable {
    /// The process.
    let svcd: SvcdProcess
    /// endpoints.json, read once svcd served.
    let endpoints: EndpointsFile

    /// The child's process id.
    var pid: Int32 { svcd.pid }

    /// svcd's data directory.
    var dataDirectory: String { svcd.dataDirectory }

    /// The svcd executable: `given`, or the one next to this executable; fails when it is not
    /// there.
    static func executable(_ given: String?) throws -> String {
        guard let path = SvcdProcess.executable(nextToThisOne: given) else {
            throw BenchFailure("no svcd at \(given ?? "the directory of storebench"): build it (swift build -c release --product svcd) or pass --svcd")
        }
        return path
    }

    /// Starts `executable --store postgres --database-url URL` plus `arguments` (see
    /// ``launch(executable:store:dataDirectory:arguments:started:)``).
    static func launch(
        executable: String, databaseURL: String, dataDirectory: String, arguments: [String],
        started: @Sendable (Int32) -> Void
    ) async throws -> SvcdInstance {
        try await launch(
            executable: executable, store: ["--store", "postgres", "--database-url", databaseURL], dataDirectory: dataDirectory,
            arguments: arguments, started: started
        )
    }

    /// Starts svcd with `store` (`--store sqlite`, or postgres and its URL) and `arguments`, and
    /// waits until it serves; kills it if it does not. `started` gets the process id as soon as it
    /// runs (for cleanup on Ctrl-C).
    static func launch(
        executable: String, store: [String], dataDirectory: String, arguments: [String], started: @Sendable (Int32) -> Void
    ) async throws -> SvcdInstance {
        let svcd = try SvcdProcess.spawn(
            executable: executable, dataDirectory: dataDirectory, arguments: store + ["--seed-sample", "--log-level", "warning"] + arguments,
            logPath: dataDirectory + "/svcd.log", environment: ChildTool.cleanEnvironment
        )
        started(svcd.pid)
        do {
            return SvcdInstance(svcd: svcd, endpoints: try await svcd.waitUntilServing(timeout: .seconds(120)))
        } catch {
            svcd.process.send(signal: SIGKILL)
            throw BenchFailure("svcd (\(dataDirectory)) did not start: \(error)")
        }
    }

    /// The address of `useCase`.
    func address(_ useCase: UseCaseName) throws -> String {
        guard let address = endpoints.useCases[useCase] else { throw BenchFailure("svcd's endpoints.json lacks \(useCase.rawValue)") }
        return address
    }

    /// The live event stream's address.
    func eventStream() throws -> String {
        guard let address = endpoints.events else { throw BenchFailure("svcd's endpoints.json lacks \(EndpointsFile.Key.events)") }
        return address
    }

    /// SIGTERM (svcd answers what is in flight, closes its pool and exits), then waits for the
    /// exit; SIGKILL after `patience`.
    func stop(patience: Duration = .seconds(20)) async {
        if await svcd.stop(patience: patience) {
            FileHandle.standardError.write(Data("storebench: svcd \(pid) did not stop within \(patience); killed\n".utf8))
        }
    }
}

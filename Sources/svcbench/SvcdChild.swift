import Foundation
import ServerProcesses
import WireContract

/// One svcd child for `--curve`: an ``SvcdProcess`` with `--seed-sample --log-level warning`
/// plus the given arguments, logging to `DIR.log`, and the endpoints it serves.
struct SvcdChild: Sendable {
    /// The process.
    let svcd: SvcdProcess
    /// Its endpoints.json, read once it was written.
    let endpoints: EndpointsFile

    /// The address of `useCase`.
    func address(_ useCase: UseCaseName) throws -> String {
        guard let address = endpoints.useCases[useCase] else {
            throw BenchError("svcd \(svcd.pid): endpoints.json has no \(useCase.rawValue)")
        }
        return address
    }

    /// Starts svcd and waits (up to 120 s) until it serves; kills it if it does not.
    static func launch(executable: String, dataDirectory: String, arguments: [String]) async throws -> SvcdChild {
        let svcd = try SvcdProcess.spawn(
            executable: executable, dataDirectory: dataDirectory, arguments: ["--seed-sample", "--log-level", "warning"] + arguments,
            logPath: dataDirectory + ".log"
        )
        do {
            return SvcdChild(svcd: svcd, endpoints: try await svcd.waitUntilServing(timeout: .seconds(120), interval: .milliseconds(20)))
        } catch {
            await svcd.stop(patience: .seconds(10))
            throw BenchError("\(error)")
        }
    }

    /// SIGTERM, then waits for the exit (SIGKILL after 30 s), then removes the data directory
    /// and the log.
    func stop() async {
        if await svcd.stop(patience: .seconds(30)) {
            FileHandle.standardError.write(Data("svcbench: svcd \(svcd.pid) did not stop within 30 s; killed\n".utf8))
        }
        try? FileManager.default.removeItem(atPath: svcd.dataDirectory)
        try? FileManager.default.removeItem(atPath: svcd.logPath)
    }
}

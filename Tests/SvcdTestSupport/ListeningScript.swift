import ChildProcess
import Foundation

/// A helper process of the tests (a Python script) that prints the port it listens on before
/// anything else: started with its stdout and stderr in files of a temporary directory of its
/// own, and waited for until that port appears.
struct ListeningScript {
    let process: SpawnedProcess
    /// The temporary directory of its files.
    let directory: String
    let outPath: String
    let errPath: String
    /// The port it printed.
    let port: Int

    /// Starts `python3 arguments…` and waits (15 s at most) until `port` reads a port from what
    /// it printed; when it does not, stops it, removes its files and throws, naming `what` and
    /// quoting its stderr.
    static func start(_ arguments: [String], tag: String, what: String, port: (String) -> Int?) async throws -> ListeningScript {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(tag)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let outPath = directory + "/out", errPath = directory + "/err"
        let process = try SpawnedProcess.spawn("/usr/bin/env", ["python3"] + arguments, stdout: .file(outPath), stderr: .file(errPath))
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: outPath, encoding: .utf8), let port = port(text) {
                return ListeningScript(process: process, directory: directory, outPath: outPath, errPath: errPath, port: port)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = await process.stop(patience: .seconds(5))
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: directory)
        throw ChildFailure("\(what): \(stderr)")
    }
}

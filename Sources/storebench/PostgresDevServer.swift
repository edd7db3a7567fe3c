import ChildProcess
import Foundation

/// A throwaway PostgreSQL server made by `Deploy/postgres-dev.sh start` (fsync on, trust
/// authentication on 127.0.0.1), with psql at hand.
struct PostgresDevServer: Sendable {
    /// The script that made the server.
    let script: String
    /// `PGDEV_DIR`: the server's directory, removed by ``stop()``.
    let directory: String
    /// `PGDEV_URL`: postgres://USER@127.0.0.1:PORT/DB.
    let url: String
    let host: String
    let port: String
    let user: String
    let database: String
    /// `PGDEV_BIN`: where psql, pgbench and the server live.
    let bin: String

    /// Starts a server with `script` (fsync on: no `--no-sync`).
    static func start(script: String) async throws -> PostgresDevServer {
        let output = try await ChildTool.run("/bin/bash", [script, "start"], timeout: .seconds(180)).succeeded("postgres-dev.sh start")
        var lines: [String: String] = [:]
        for line in output.stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            lines[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let directory = lines["PGDEV_DIR"], let url = lines["PGDEV_URL"], let host = lines["PGDEV_HOST"], let port = lines["PGDEV_PORT"],
              let user = lines["PGDEV_USER"], let database = lines["PGDEV_DB"], let bin = lines["PGDEV_BIN"]
        else { throw BenchFailure("postgres-dev.sh start printed no PGDEV_… lines: \(output.stdout)") }
        return PostgresDevServer(script: script, directory: directory, url: url, host: host, port: port, user: user, database: database, bin: bin)
    }

    /// The postmaster's process id (the first line of `postmaster.pid`).
    func postmasterPID() throws -> Int32 {
        let text = (try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first, let pid = Int32(line) else {
            throw BenchFailure("no postmaster.pid in \(directory)/data")
        }
        return pid
    }

    /// Runs `sql` with psql (stop on the first error) and returns its unaligned, tuples-only output.
    func psql(_ sql: String) async throws -> String {
        let output = try await ChildTool.run(
            bin + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", user, "-d", database, "-c", sql]
        ).succeeded("psql -c \(sql)")
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server and removes its directory, blocking (for cleanup actions); the script's
    /// complaints go to this process's stderr. Gives up waiting after 180 s (the script's own
    /// `pg_ctl` waits are 30 s each).
    func stopBlocking() {
        do {
            let process = try SpawnedProcess.spawn(
                "/bin/bash", [script, "stop", directory], environment: ChildTool.cleanEnvironment, stdout: .discarded, stderr: .inherited
            )
            if process.waitForEndBlocking(timeout: .seconds(180)) == nil {
                FileHandle.standardError.write(Data("storebench: \(script) stop \(directory) still runs after 180 s; not waiting for it\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("storebench: could not run \(script) stop \(directory): \(error)\n".utf8))
        }
    }

    /// Finds `Deploy/postgres-dev.sh` in the repository this executable was built in (walking up
    /// from the executable), else under the working directory.
    static func locateScript() throws -> String {
        let relative = "Deploy/postgres-dev.sh"
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var searched: [String] = []
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(relative).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            searched.append(candidate)
            directory = directory.deletingLastPathComponent()
        }
        let here = FileManager.default.currentDirectoryPath + "/" + relative
        if FileManager.default.isExecutableFile(atPath: here) { return here }
        throw BenchFailure("\(relative) not found (--postgres-dev PATH); looked at: \(searched.joined(separator: ", ")), \(here)")
    }
}

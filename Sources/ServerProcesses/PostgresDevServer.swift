import ChildProcess
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server of a test's or a benchmark's own, run by `Deploy/postgres-dev.sh`: a fresh
/// cluster in a temporary directory, on 127.0.0.1 and a free port, trust authentication, with
/// fsync on unless asked otherwise. Never the machine's system cluster.
///
/// `start()` throws (with the script's stderr and the server log's tail) when PostgreSQL cannot
/// be started: tests that need it fail, they are never skipped. The one launcher of PostgreSQL
/// for the tests and the benchmark tools.
public final class PostgresDevServer: Sendable {
    /// The cluster's directory: data, `postgres.log`, the unix socket. Removed by `stop()`.
    public let directory: String
    /// The TCP port on `host`; the same after `pause()` and `resume()`.
    public let port: Int
    /// The address the server listens on (`127.0.0.1`).
    public let host: String
    /// The cluster's superuser: `postgres` when the tests run as root, else the current user.
    public let user: String
    /// The database `start` created.
    public let database: String
    /// `postgres://user@127.0.0.1:port/database`, the URL of `database`.
    public let url: String
    /// The directory holding this PostgreSQL's `psql`.
    public let binDirectory: String
    private let script: String

    private init(lines: [String: String], script: String) throws {
        func value(_ key: String) throws -> String {
            guard let value = lines[key], !value.isEmpty else {
                throw ServerProcessFailure("postgres-dev.sh printed no \(key); it printed: \(lines)")
            }
            return value
        }
        directory = try value("PGDEV_DIR")
        guard let port = Int(try value("PGDEV_PORT")) else { throw ServerProcessFailure("postgres-dev.sh printed a bad PGDEV_PORT") }
        self.port = port
        host = try value("PGDEV_HOST")
        user = try value("PGDEV_USER")
        database = try value("PGDEV_DB")
        url = try value("PGDEV_URL")
        binDirectory = try value("PGDEV_BIN")
        self.script = script
    }

    /// Starts a new server with an empty database `database` (a plain identifier), on `port` or
    /// a free one. `fsync: false` makes commits cheaper and no longer durable (never for
    /// benchmarks or durability tests).
    public static func start(database: String = "svc", port: Int? = nil, fsync: Bool = true, script given: String? = nil) async throws -> PostgresDevServer {
        let script = try given ?? scriptPath()
        // Short on purpose: the unix socket's path inside it must fit in 107 bytes.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pgdev-\(UUID().uuidString.prefix(8).lowercased())").path
        let arguments = ["start", directory, "--db", database] + (port.map { ["--port", String($0)] } ?? [])
            + (fsync ? [] : ["--no-sync"])
        let outcome: CompletedProcess
        do {
            outcome = try await runScript(script, arguments, timeout: .seconds(120))
        } catch {
            _ = try? await runScript(script, ["stop", directory], timeout: .seconds(60))
            throw error
        }
        guard outcome.exitStatus == 0 else {
            // The script cleans up after itself, but not after being killed on a timeout.
            _ = try? await runScript(script, ["stop", directory], timeout: .seconds(60))
            throw ServerProcessFailure(
                "could not start PostgreSQL (\(describe(outcome.exitStatus))): \(script) \(arguments.joined(separator: " "))\n\(outcome.stderr)")
        }
        do {
            return try PostgresDevServer(lines: parse(outcome.stdout), script: script)
        } catch {
            _ = try? await runScript(script, ["stop", directory], timeout: .seconds(60))
            throw error
        }
    }

    /// Starts a streaming standby of this server (`pg_basebackup -R`) on a free port: a
    /// read-only copy that follows every commit, until ``promote()`` makes it a primary. Stop
    /// it with ``stop()`` like any server.
    public func startStandby() async throws -> PostgresDevServer {
        let outcome = try await Self.runScript(script, ["standby", directory], timeout: .seconds(120))
        guard outcome.exitStatus == 0 else {
            throw ServerProcessFailure("could not start a standby of \(directory) (\(Self.describe(outcome.exitStatus))):\n\(outcome.stderr)")
        }
        return try PostgresDevServer(lines: Self.parse(outcome.stdout), script: script)
    }

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`), keeping its data.
    public func crash() async throws {
        try await script(["crash", directory], "crash")
    }

    /// Promotes a standby to a primary and returns once it accepts writes.
    public func promote() async throws {
        try await script(["promote", directory], "promote")
    }

    /// The URL of another database on this server.
    public func url(database name: String) -> String {
        "postgres://\(user)@\(host):\(port)/\(name)"
    }

    /// Stops the server and keeps its data: clients see their connections end and new ones
    /// refused, as when the database goes away. `resume()` brings it back.
    public func pause() async throws {
        try await script(["pause", directory], "pause")
    }

    /// Starts a paused server again, on the same port.
    public func resume() async throws {
        let outcome = try await script(["resume", directory], "resume")
        let again = Self.parse(outcome.stdout)["PGDEV_PORT"]
        guard again == String(port) else {
            throw ServerProcessFailure("PostgreSQL resumed on port \(again ?? "?"), not \(port)")
        }
    }

    /// Stops the server and removes its directory. Stopping twice is harmless.
    public func stop() async throws {
        try await script(["stop", directory], "stop")
    }

    /// Stops the server and removes its directory without suspending (for cleanup on Ctrl-C);
    /// gives up waiting after `patience`.
    public func stopBlocking(patience: Duration = .seconds(180)) {
        do {
            let process = try SpawnedProcess.spawn("/bin/bash", [script, "stop", directory], environment: Self.environment([:]), stdout: .discarded, stderr: .inherited)
            if process.waitForEndBlocking(timeout: patience) == nil {
                FileHandle.standardError.write(Data("\(script) stop \(directory) still runs after \(patience); not waiting for it\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("could not run \(script) stop \(directory): \(error)\n".utf8))
        }
    }

    /// The postmaster's process id (for CPU accounting).
    public func postmasterPID() throws -> Int32 {
        let text = (try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first, let pid = Int32(line) else {
            throw ServerProcessFailure("no postmaster.pid in \(directory)/data")
        }
        return pid
    }

    /// Creates a database (a plain identifier, default a unique `t_…` name) for a test that wants
    /// one of its own, and returns its URL.
    @discardableResult
    public func createDatabase(_ name: String? = nil) async throws -> String {
        let name = name ?? "t_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "_"))"
        guard name.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*/) != nil else {
            throw ServerProcessFailure("database name must be a plain identifier: \(name)")
        }
        _ = try await psql("CREATE DATABASE \"\(name)\"", database: "postgres")
        return url(database: name)
    }

    /// Runs `sql` with psql over TCP as the superuser in `database` (default: the server's)
    /// and returns its output, unaligned and without headers, trimmed; throws when psql fails.
    public func psql(_ sql: String, database name: String? = nil) async throws -> String {
        let outcome = try await runPsql(sql, database: name)
        guard outcome.exitStatus == 0 else {
            throw ServerProcessFailure("psql failed (\(Self.describe(outcome.exitStatus))) on \(sql):\n\(outcome.stderr)")
        }
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `sql` like `psql(_:database:)` but returns how psql ended instead of throwing when it
    /// fails, e.g. to see a connection refused while the server is paused.
    public func runPsql(_ sql: String, database name: String? = nil, timeout: Duration = .seconds(30)) async throws -> CompletedProcess {
        try await Self.run(
            URL(fileURLWithPath: binDirectory).appendingPathComponent("psql").path,
            ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", String(port), "-U", user,
             "-d", name ?? database, "-c", sql],
            environment: ["PGCONNECT_TIMEOUT": "10"],
            timeout: timeout)
    }

    // MARK: - Running the script

    @discardableResult
    private func script(_ arguments: [String], _ what: String) async throws -> CompletedProcess {
        let outcome = try await Self.runScript(script, arguments, timeout: .seconds(90))
        guard outcome.exitStatus == 0 else {
            throw ServerProcessFailure("could not \(what) PostgreSQL in \(directory) (\(Self.describe(outcome.exitStatus))):\n\(outcome.stderr)")
        }
        return outcome
    }

    private static func runScript(_ script: String, _ arguments: [String], timeout: Duration) async throws -> CompletedProcess {
        try await run("/bin/bash", [script] + arguments, environment: [:], timeout: timeout)
    }

    private static func describe(_ status: Int32?) -> String {
        status.map { "exit status \($0)" } ?? "killed by a signal, after a timeout?"
    }

    private static func parse(_ stdout: String) -> [String: String] {
        var lines: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            lines[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return lines
    }

    /// `Deploy/postgres-dev.sh`: `$PGDEV_SCRIPT` if set, else found from this source file's
    /// path (the package root is two levels up), else by walking up from the test runner and
    /// from the working directory.
    public static func scriptPath(sourceFile: String = #filePath) throws -> String {
        let files = FileManager.default
        let relative = "Deploy/postgres-dev.sh"
        if let explicit = ProcessInfo.processInfo.environment["PGDEV_SCRIPT"], !explicit.isEmpty {
            guard files.fileExists(atPath: explicit) else { throw ServerProcessFailure("PGDEV_SCRIPT=\(explicit) does not exist") }
            return explicit
        }
        var starts = [URL(fileURLWithPath: sourceFile).deletingLastPathComponent()]
        starts.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        starts.append(URL(fileURLWithPath: files.currentDirectoryPath))
        var searched: [String] = []
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<8 {
                let candidate = directory.appendingPathComponent(relative).path
                if !searched.contains(candidate) { searched.append(candidate) }
                if files.fileExists(atPath: candidate) { return candidate }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        throw ServerProcessFailure("\(relative) not found (set PGDEV_SCRIPT); looked at: \(searched.joined(separator: ", "))")
    }

    /// Runs a tool to completion, its output captured through files
    /// (``SpawnedProcess/run(_:_:environment:timeout:stopSignal:started:)``: the task polls, no
    /// cooperative thread is blocked), also in a cancelled task (stopping a server must finish
    /// even in a cancelled test); kills the tool after `timeout`.
    /// `environment` is added to this process's, minus the caller's libpq (`PG…`) settings.
    private static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], timeout: Duration
    ) async throws -> CompletedProcess {
        try await SpawnedProcess.run(executable, arguments, environment: Self.environment(environment), timeout: timeout)
    }

    /// This process's environment minus the caller's libpq (`PG…`) settings, plus `extra`.
    private static func environment(_ extra: [String: String]) -> [String: String] {
        var inherited = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("PG") || key.hasPrefix("PGDEV_")
        }
        inherited.merge(extra) { _, new in new }
        return inherited
    }
}


import Foundation
import ServiceApp
import Synchronization

#if canImport(Glibc)
import Glibc
import WireContract
#endif

/// One svcd child process for `--curve`: `svcd --data-dir DIR --port-base 0 --seed-sample
/// --log-level warning` plus the given arguments, its stdout and stderr appended to
/// `DIR.log`. Ready once DIR/endpoints.json names its pid.
///
/// Started with `posix_spawn`, as Tests/SvcdTestSupport/SpawnedProcess.swift does and for its
/// reason: Foundation's `Process.run()` on Linux (Swift 6.3.1) now and then crashes while it
/// lists `/proc/self/fd`. The child gets a cleared signal mask, so SIGTERM reaches it.
final class SvcdChild: Sendable {
    /// The child's process id.
    let pid: pid_t
    /// Its data directory (removed by ``stop()``).
    let dataDirectory: String
    /// Its endpoints.json, read once it was written.
    let endpoints: EndpointsFile
    private let reaped = Mutex(false)

    private init(pid: pid_t, dataDirectory: String, endpoints: EndpointsFile) {
        self.pid = pid
        self.dataDirectory = dataDirectory
        self.endpoints = endpoints
    }

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
        let pid = try spawn(executable, argumentList, output: logPath)
        var status: Int32 = 0
        switch try await EndpointsFile.wait(
            in: dataDirectory, writtenBy: pid, timeout: .seconds(120), interval: .milliseconds(20), isRunning: { waitpid(pid, &status, WNOHANG) != pid }
        ) {
        case .written(let file):
            return SvcdChild(pid: pid, dataDirectory: dataDirectory, endpoints: file)
        case .processEnded:
            throw BenchError("svcd exited with status \(status) before it served; see \(logPath)")
        case .timedOut:
            break
        }
        _ = kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        throw BenchError("svcd wrote no endpoints.json within 120 s; see \(logPath)")
    }

    /// SIGTERM, then waits for the exit (SIGKILL after 30 s), then removes the data directory
    /// and the log. Idempotent.
    func stop() async {
        guard !reaped.withLock({ $0 }) else { return }
        _ = kill(pid, SIGTERM)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) != pid {
            if clock.now >= deadline {
                FileHandle.standardError.write(Data("svcbench: svcd \(pid) did not stop within 30 s; killed\n".utf8))
                _ = kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        reaped.withLock { $0 = true }
        try? FileManager.default.removeItem(atPath: dataDirectory)
        try? FileManager.default.removeItem(atPath: dataDirectory + ".log")
    }

    private static func spawn(_ executable: String, _ arguments: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { argvPointer in
            (environment + [nil]).withUnsafeBufferPointer { environmentPointer in
                posix_spawn(&pid, executable, &actions, &attributes, argvPointer.baseAddress!, environmentPointer.baseAddress!)
            }
        }
        guard result == 0 else {
            throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }
}

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`: the one way the repository starts one. The tests
/// launch svcd, svcctl, PostgreSQL's tools and scripts with it; svcbench its svcd children;
/// storebench svcd, redis-server, pgbench, psql and postgres-dev.sh.
///
/// Not Foundation's `Process`: its `run()` on Linux (Swift 6.3.1) reads 256 bytes past a
/// directory entry while it lists `/proc/self/fd` and crashes now and then (swift-corelibs-
/// foundation PR 5472), more often the more descriptors the parent has open — and the tests and
/// benchmarks hold many (ZeroMQ sockets, PostgreSQL connections). This one closes every
/// descriptor above stderr in the child (`posix_spawn_file_actions_addclosefrom_np`), so a child
/// never keeps its parent's sockets alive, and clears the signal mask and resets SIGTERM, SIGINT
/// and a few others to their default action: a child spawned from a thread that blocks signals
/// (the cooperative pool's and Dispatch's threads block nearly all), or from a process that
/// ignores SIGINT and SIGTERM to catch them with a dispatch source, still gets SIGTERM and
/// SIGALRM (pgbench's `-T` alarm).
///
/// The child is reaped when ``ended`` (or ``isRunning``, or a wait) finds it has ended; nothing
/// reaps it in the background.
public final class SpawnedProcess: Sendable {
    /// How a child ended.
    public enum Ending: Sendable, Hashable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
    }

    /// Where a child's stdout or stderr goes.
    public enum Output: Sendable, Hashable {
        /// /dev/null.
        case discarded
        /// The file at this path, appended to (created with mode 0644 if missing).
        case file(String)
        /// This process's own stdout or stderr, shared with the child.
        case inherited
    }

    /// The child's process id.
    public let pid: pid_t
    private let ending = Mutex<Ending?>(nil)

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `executable` (a path; PATH is not searched) with `arguments`; stdin is /dev/null.
    /// `environment` replaces the inherited one when given. When `stdout` and `stderr` name the
    /// same file, both streams share one open file (stderr is a duplicate of stdout), so their
    /// lines interleave in the order they were written.
    ///
    /// - Throws: ``SpawnFailure`` when the child cannot be started (no such executable, say).
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdout: Output = .discarded, stderr: Output = .discarded
    ) throws -> SpawnedProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        redirect(1, to: stdout, &actions)
        if case .file = stderr, stderr == stdout {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            redirect(2, to: stderr, &actions)
        }
        closeFrom(3, &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGALRM, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let environmentStrings = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        defer { environmentStrings.forEach { free($0) } }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { argvPointer in
            (environmentStrings + [nil]).withUnsafeBufferPointer { environmentPointer in
                posix_spawn(&pid, executable, &actions, &attributes, argvPointer.baseAddress!, environmentPointer.baseAddress!)
            }
        }
        guard result == 0 else {
            throw SpawnFailure(executable: executable, code: result)
        }
        return SpawnedProcess(pid: pid)
    }

    /// Has the child's descriptor `fd` go to `output`.
    private static func redirect(_ fd: Int32, to output: Output, _ actions: inout posix_spawn_file_actions_t) {
        switch output {
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        case .inherited:
            break
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare: looked up by name.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Has the child close every descriptor from `lowest` up.
    private static func closeFrom(_ lowest: Int32, _ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom {
            _ = addCloseFrom(&actions, lowest)
            return
        }
        // An older glibc: close what is open now (descriptors opened meanwhile by libzmq, NIO
        // and Foundation are close-on-exec anyway).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd >= lowest {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// How the child ended, `nil` while it runs (reaps it once it has ended).
    public var ended: Ending? {
        ending.withLock { ending in
            if let ending { return ending }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: they are C macros.
            let signal = status & 0x7F
            ending = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
            return ending
        }
    }

    /// Whether the child still runs.
    public var isRunning: Bool { ended == nil }

    /// Sends `signal` to the child while it runs.
    public func send(signal: Int32) {
        if isRunning { _ = kill(pid, signal) }
    }

    /// Polls (every 10 ms, sleeping the task, never blocking a thread) until the child has ended
    /// or `timeout` passes; returns how it ended, `nil` if it still runs. A cancelled task waits
    /// all the same, so cleanup that stops a child still sees it go.
    @discardableResult
    public func waitForEnd(timeout: Duration) async -> Ending? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if let ended { return ended }
            if clock.now >= deadline { return nil }
            if Task.isCancelled {
                // A cancelled task's own sleep would return at once and spin.
                await Task.detached { try? await Task.sleep(for: .milliseconds(10)) }.value
            } else {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// The same wait as ``waitForEnd(timeout:)`` with a `Duration`, the timeout in seconds.
    @discardableResult
    public func waitForEnd(timeout seconds: Double) async -> Ending? {
        await waitForEnd(timeout: .milliseconds(Int(seconds * 1000)))
    }

    /// Blocks the calling thread, polling every 10 ms, until the child has ended or `timeout`
    /// passes; returns how it ended, `nil` if it still runs. For synchronous cleanup (a
    /// `deinit`, a signal handler's Dispatch queue), not for the cooperative pool.
    @discardableResult
    public func waitForEndBlocking(timeout: Duration) -> Ending? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if let ended { return ended }
            if clock.now >= deadline { return nil }
            usleep(10_000)
        }
    }
}

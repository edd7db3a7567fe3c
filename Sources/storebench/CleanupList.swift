import Dispatch
import Foundation
import Synchronization

/// What must be undone when the benchmark ends, however it ends: child processes to stop and
/// the PostgreSQL server to remove. On SIGINT or SIGTERM the actions run (newest first) and the
/// process exits with 130; otherwise the command runs them itself on success and on failure.
final class CleanupList: Sendable {
    private let actions = Mutex<[(key: String, action: @Sendable () -> Void)]>([])
    /// Held while the actions run.
    private let running = Mutex<Void>(())

    /// Catches SIGINT and SIGTERM from now on, as long as the caller keeps the returned sources.
    func installSignalHandlers() -> [any DispatchSourceSignal] {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                FileHandle.standardError.write(Data("\nstorebench: signal \(number), stopping svcd, pgbench and PostgreSQL\n".utf8))
                runAll()
                exit(130)
            }
            source.resume()
            sources.append(source)
        }
        return sources
    }

    /// Registers `action` under `key` (for ``remove(_:)``).
    func add(_ key: String, _ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.append((key, action)) }
    }

    /// Forgets the action of `key`, no longer needed (its work was done the ordinary way).
    func remove(_ key: String) {
        actions.withLock { $0.removeAll { $0.key == key } }
    }

    /// An action that stops the process `pid` with SIGTERM and waits up to 20 s for it to go
    /// (then SIGKILL).
    static func terminate(_ pid: Int32) -> @Sendable () -> Void {
        {
            guard kill(pid, SIGTERM) == 0 else { return }
            for _ in 0..<2000 {
                // Gone, or a zombie its SpawnedProcess has not reaped yet (it reaps when asked).
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")"), !stat[close...].hasPrefix(") Z")
                else { return }
                usleep(10_000)
            }
            kill(pid, SIGKILL)
        }
    }

    /// Runs every registered action once, newest first (blocking: call it off the cooperative
    /// pool or at the very end). A second caller (the signal handler and the command's own
    /// failure path, say) waits until the first one is done, so neither lets the process exit
    /// with cleanup half done.
    func runAll() {
        running.withLock { _ in
            let pending = actions.withLock { list in
                defer { list.removeAll() }
                return list
            }
            for entry in pending.reversed() { entry.action() }
        }
    }

    /// Runs `body` with a new scratch directory (removed at the end), catching SIGINT and SIGTERM
    /// meanwhile, and runs every registered action when it ends, however it ends.
    static func withScratch(named prefix: String, _ body: (_ scratch: String, _ cleanup: CleanupList) async throws -> Void) async throws {
        let cleanup = CleanupList()
        let signalSources = cleanup.installSignalHandlers()
        defer { withExtendedLifetime(signalSources) {} }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        cleanup.add("scratch") { try? FileManager.default.removeItem(atPath: scratch) }
        do {
            try await body(scratch, cleanup)
        } catch {
            try? await onThread { cleanup.runAll() }
            throw error
        }
        try await onThread { cleanup.runAll() }
    }
}

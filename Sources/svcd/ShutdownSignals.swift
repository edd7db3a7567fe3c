import Dispatch
import Logging
import ServiceApp
import Synchronization
import WireContract

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT, handled from before svcd creates anything until it exits.
///
/// The service group traps them only once it runs; before that, the default action would kill
/// svcd half-way and leave what start-up had made (`endpoints.json` naming a dead process). So
/// svcd traps them first, here: during start-up a signal stops it at once with status 0 — what
/// start-up leaves is safe to stop at any point (store writes are atomic, an interrupted sample
/// is finished by the next start, key files appear whole) — and removes `endpoints.json` if it
/// was written already; once the service is built, a signal starts its graceful shutdown (the
/// group remembers one that comes before it runs).
final class ShutdownSignals: Sendable {
    private enum Phase {
        case starting
        case serving(RestaurantService)
        case stopping
    }

    private let phase = Mutex(Phase.starting)
    private let dataDirectory: String
    private let logger: Logger

    private init(dataDirectory: String, logger: Logger) {
        self.dataDirectory = dataDirectory
        self.logger = logger
    }

    /// Traps SIGTERM and SIGINT for as long as `body` runs, handing it the trap to report when
    /// start-up is over.
    static func trapping<T>(dataDirectory: String, logger: Logger, _ body: (ShutdownSignals) async throws -> T) async rethrows -> T {
        let signals = ShutdownSignals(dataDirectory: dataDirectory, logger: logger)
        let queue = DispatchQueue(label: "svcd.shutdown-signals")
        let sources = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")].map { number, name in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { signals.received(name) }
            source.resume()
            return source
        }
        defer { for source in sources { source.cancel() } }
        return try await body(signals)
    }

    /// Start-up is over: from now on a signal drains `service`.
    func serving(_ service: RestaurantService) {
        phase.withLock { phase in
            if case .starting = phase { phase = .serving(service) }
        }
    }

    private func received(_ signal: String) {
        let draining: RestaurantService? = phase.withLock { phase in
            switch phase {
            case .starting:
                // Under the lock, so start-up cannot report itself over meanwhile.
                logger.notice("svcd stopped during start-up", metadata: ["signal": "\(signal)"])
                EndpointsFile.remove(from: dataDirectory, ifWrittenBy: getpid())
                // _exit, not exit: start-up's other threads are still running, and exit()'s
                // atexit handlers and destructors would run under them.
                _exit(SvcdExitCode.stopped)
            case .serving(let service):
                phase = .stopping
                return service
            case .stopping:
                return nil
            }
        }
        if let draining {
            Task { await draining.triggerGracefulShutdown() }
        }
    }
}

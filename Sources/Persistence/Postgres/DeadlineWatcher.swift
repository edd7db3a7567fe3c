import Foundation
import Synchronization

/// Checks the time limits of every running database operation from one thread, every 20 ms,
/// instead of a timer task per operation. An operation registers the instant its next limit
/// passes and a check to run then; the check ends the operation's wait (returning `nil`) or
/// names its next limit.
final class DeadlineWatcher: Sendable {
    /// The process's watcher; its thread starts with the first watched operation.
    static let shared = DeadlineWatcher()

    /// How often the thread looks: the most a limit fires late.
    static let resolution: Duration = .milliseconds(20)

    /// A watched operation.
    typealias Check = @Sendable (_ now: ContinuousClock.Instant) -> ContinuousClock.Instant?

    private struct Entry {
        var due: ContinuousClock.Instant
        let check: Check
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var lastTicket: UInt64 = 0
        var started = false
    }

    private let state = Mutex(State())

    /// Runs `check` on the watcher's thread once `due` has passed, and again at the instant it
    /// returns, until it returns `nil` or the ticket is unwatched. Returns the ticket.
    func watch(due: ContinuousClock.Instant, check: @escaping Check) -> UInt64 {
        let (ticket, start) = state.withLock { state in
            state.lastTicket += 1
            state.entries[state.lastTicket] = Entry(due: due, check: check)
            defer { state.started = true }
            return (state.lastTicket, !state.started)
        }
        if start {
            let thread = Thread { [self] in watchForever() }
            thread.name = "pg-deadlines"
            thread.start()
        }
        return ticket
    }

    /// Stops watching an operation (it ended).
    func unwatch(_ ticket: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: ticket) }
    }

    private func watchForever() {
        let (seconds, attoseconds) = Self.resolution.components
        let micros = UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        var due: [(UInt64, Check)] = []
        while true {
            usleep(micros)
            let now = ContinuousClock.now
            due.removeAll(keepingCapacity: true)
            state.withLock { state in
                for (ticket, entry) in state.entries where entry.due <= now {
                    due.append((ticket, entry.check))
                }
            }
            for (ticket, check) in due {
                let next = check(now)
                state.withLock { state in
                    if let next {
                        state.entries[ticket]?.due = next
                    } else {
                        state.entries.removeValue(forKey: ticket)
                    }
                }
            }
        }
    }
}

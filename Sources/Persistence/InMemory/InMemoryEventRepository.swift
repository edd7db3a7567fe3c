import Domain
import Synchronization

/// The event log held in memory, shared by the in-memory repositories of one store. A repository
/// appends its write's event through ``InMemoryIdempotencyRepository/perform(_:_:)``, inside its
/// actor's own step: numbering, appending and handing the event to the live stream's tail happen
/// under this log's lock, so events of writes on different actors are numbered in the order their
/// steps ran, without gaps. Lost when the process ends.
public final class InMemoryEventRepository: EventRepository {
    private struct Log {
        /// Contiguous, oldest first.
        var events: [LoggedEvent] = []
        var lastSeq: Int64 = 0
    }

    private let log = Mutex(Log())
    private let tail = EventTail(lastSeq: 0)
    /// Encodes appended events; `nil`: events are written nowhere.
    let encoder: (any EventEncoding)?
    private let clock: any WallClock

    /// An empty log of events encoded by `encoder` (`nil`: none are kept), stamped with `clock`.
    public init(encoder: (any EventEncoding)?, clock: any WallClock = SystemWallClock()) {
        self.encoder = encoder
        self.clock = clock
    }

    /// Numbers and appends `event`, encoded by `encoder` unless it was prepared.
    func append(_ event: PendingEvent, encodedBy encoder: any EventEncoding) {
        let prepared: PreparedEvent
        switch event {
        case .domain(let event): prepared = PreparedEvent(event, encodedBy: encoder, at: clock.now())
        case .prepared(let ready): prepared = ready
        case .written: return
        }
        log.withLock { log in
            log.lastSeq += 1
            let logged = prepared.logged(seq: log.lastSeq)
            log.events.append(logged)
            tail.committed(logged)
        }
    }

    /// Events after `after` of `types`, in seq order, with the log's bounds.
    public func events(after: Int64, types: Set<String>?, limit: Int) -> EventLogSlice {
        log.withLock { log in
            let first = log.events.first?.seq ?? log.lastSeq + 1
            let start = Int(max(0, min(Int64(log.events.count), after + 1 - first)))
            var events: [LoggedEvent] = []
            for event in log.events[start...] where types?.contains(event.type) ?? true {
                guard events.count < limit else { break }
                events.append(event)
            }
            return EventLogSlice(events: events, lastSeq: log.lastSeq, firstKeptSeq: first)
        }
    }

    /// The highest seq handed out.
    public func lastSeq() -> Int64 {
        log.withLock { $0.lastSeq }
    }

    /// Waits for events after `after`.
    public func nextEvents(after: Int64, limit: Int) async throws -> [LoggedEvent] {
        try await tail.next(after: after, limit: limit) { after, limit in
            events(after: after, types: nil, limit: limit).events
        }
    }

    /// Forgets the events before the first one written at or after `cutoff`, never the newest.
    public func removeEvents(writtenBefore cutoff: Timestamp) -> Int {
        log.withLock { log in
            let count = min(log.events.firstIndex { $0.at >= cutoff } ?? log.events.count, max(0, log.events.count - 1))
            log.events.removeFirst(count)
            return count
        }
    }
}

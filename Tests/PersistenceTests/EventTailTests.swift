import Domain
@testable import Persistence
import Synchronization
import Testing

/// The live stream's view of the log's newest end: the events handed over at commit are served
/// from memory while they are held, and everything else (older than the window, past a gap,
/// numbered elsewhere) from the log.
struct EventTailTests {
    private static func event(_ seq: Int64) -> LoggedEvent {
        LoggedEvent(seq: seq, type: "UserRegistered", at: Timestamp(millisecondsSinceEpoch: seq), key: "u-\(seq)", data: Array("{}".utf8))
    }

    /// A log reader that records what it was asked and answers with the events asked for.
    private final class LogReads: Sendable {
        let asked = Mutex<[Int64]>([])

        func read(after: Int64, limit: Int) -> [LoggedEvent] {
            asked.withLock { $0.append(after) }
            return (after + 1...after + Int64(limit)).map(EventTailTests.event)
        }
    }

    @Test func heldEventsAreServedInSeqOrderWithoutReadingTheLog() async throws {
        let tail = EventTail(lastSeq: 10, capacity: 8)
        for seq in Int64(11)...15 { tail.committed(Self.event(seq)) }
        let log = LogReads()
        let events = try await tail.next(after: 12, limit: 100) { log.read(after: $0, limit: $1) }
        #expect(events.map(\.seq) == [13, 14, 15])
        #expect(events.map(\.key) == ["u-13", "u-14", "u-15"])
        let limited = try await tail.next(after: 10, limit: 2) { log.read(after: $0, limit: $1) }
        #expect(limited.map(\.seq) == [11, 12])
        #expect(log.asked.withLock { $0 }.isEmpty)
        #expect(tail.lastSeq == 15)
    }

    @Test func aReaderBehindTheWindowReadsTheLogAndTheWindowKeepsTheNewest() async throws {
        let tail = EventTail(lastSeq: 0, capacity: 4)
        for seq in Int64(1)...11 { tail.committed(Self.event(seq)) }
        let log = LogReads()
        // 8…11 are held (the ring wrapped twice); 7 is not.
        let behind = try await tail.next(after: 5, limit: 2) { log.read(after: $0, limit: $1) }
        #expect(behind.map(\.seq) == [6, 7])
        #expect(log.asked.withLock { $0 } == [5])
        let held = try await tail.next(after: 7, limit: 10) { log.read(after: $0, limit: $1) }
        #expect(held.map(\.seq) == [8, 9, 10, 11])
        #expect(log.asked.withLock { $0 } == [5])
    }

    @Test func aGapInCommittedSeqsSendsReadersOfTheGapToTheLog() async throws {
        let tail = EventTail(lastSeq: 0, capacity: 8)
        tail.committed(Self.event(1))
        tail.committed(Self.event(2))
        // 3 and 4 were written by another process: this one never saw them.
        tail.committed(Self.event(5))
        let log = LogReads()
        let fromGap = try await tail.next(after: 2, limit: 3) { log.read(after: $0, limit: $1) }
        #expect(fromGap.map(\.seq) == [3, 4, 5])
        #expect(log.asked.withLock { $0 } == [2])
        let held = try await tail.next(after: 4, limit: 3) { log.read(after: $0, limit: $1) }
        #expect(held.map(\.seq) == [5])
        #expect(log.asked.withLock { $0 } == [2])
    }

    @Test func anAdvanceWithoutEventsHoldsNothingSoReadersReadTheLog() async throws {
        let tail = EventTail(lastSeq: 0, capacity: 8)
        tail.committed(Self.event(1))
        tail.advanced(to: 3)
        let log = LogReads()
        let events = try await tail.next(after: 0, limit: 3) { log.read(after: $0, limit: $1) }
        #expect(events.map(\.seq) == [1, 2, 3])
        #expect(log.asked.withLock { $0 } == [0])
        #expect(tail.lastSeq == 3)
    }

    @Test func aWaitingReaderResumesWithTheNextCommittedEvent() async throws {
        let tail = EventTail(lastSeq: 7, capacity: 8)
        let log = LogReads()
        let reader = Task { try await tail.next(after: 7, limit: 10) { log.read(after: $0, limit: $1) } }
        tail.committed(Self.event(8))
        let events = try await reader.value
        #expect(events.map(\.seq) == [8])
        #expect(log.asked.withLock { $0 }.isEmpty)
    }
}

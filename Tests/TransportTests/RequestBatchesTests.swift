import Foundation
import Testing
import WireContract
@testable import Transport

/// The queue between a socket thread and its endpoint's handler: every batch delivered once, in
/// order, whether the consumer waits or not; the end only after what was queued.
struct RequestBatchesTests {
    /// A batch of `count` requests whose ids are `first`, `first + 1`, ….
    private static func batch(from first: Int, count: Int) throws -> [InboundRequest] {
        try (first..<first + count).map { id in
            InboundRequest(
                envelope: Envelope(routingId: [0, 0, 0, 1], hops: []),
                request: try WireRequest.decode(WireEnvelope.requestBytes(id: String(id), paramsJSON: "{}")),
                receivedAt: .zero, caller: 0, spanId: UInt64(id)
            )
        }
    }

    @Test func batchesQueuedBeforeTheConsumerComeOutInOrderThenTheEnd() async throws {
        let batches = RequestBatches()
        batches.yield(try Self.batch(from: 0, count: 2))
        batches.yield(try Self.batch(from: 2, count: 1))
        batches.finish()
        // After the end nothing more is taken.
        batches.yield(try Self.batch(from: 3, count: 1))
        var ids: [String] = []
        var sizes: [Int] = []
        for await batch in batches {
            sizes.append(batch.count)
            ids += batch.map { $0.request.id ?? "none" }
        }
        #expect(sizes == [2, 1])
        #expect(ids == ["0", "1", "2"])
    }

    /// A producer thread yielding as fast as it can while the consumer takes, so that the
    /// consumer finds the queue now full (past its compaction point), now empty (and waits):
    /// each request arrives exactly once, in order.
    @Test func aWaitingConsumerGetsEveryBatchAnotherThreadYields() async throws {
        let batches = RequestBatches()
        let total = 5_000
        let prepared = try (0..<total).map { try Self.batch(from: $0, count: 1) }
        let producer = Thread {
            for batch in prepared { batches.yield(batch) }
            batches.finish()
        }
        producer.start()
        var ids: [String] = []
        ids.reserveCapacity(total)
        for await batch in batches {
            ids += batch.map { $0.request.id ?? "none" }
        }
        #expect(ids == (0..<total).map(String.init))
    }

    @Test func anEndWhileTheConsumerWaitsEndsItsLoop() async throws {
        let batches = RequestBatches()
        let consumer = Task {
            var count = 0
            for await batch in batches { count += batch.count }
            return count
        }
        batches.yield(try Self.batch(from: 0, count: 3))
        batches.finish()
        #expect(await consumer.value == 3)
    }
}

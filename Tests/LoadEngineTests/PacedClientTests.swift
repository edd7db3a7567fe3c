import Testing
@testable import LoadEngine

@Suite("Paced clients sharing a load thread")
struct PacedClientTests {
    @Test func requestIdsOfTwoClientsNeverCollide() {
        let ids = (0..<64).flatMap { client in (1...64).map { PacedClient.requestId(client: client, number: UInt64($0)) } }
        #expect(Set(ids).count == 64 * 64)
        #expect(PacedClient.requestId(client: 1, number: (1 << 40) - 1) < PacedClient.requestId(client: 2, number: 1))
    }

    @Test func aReplysIdIsReadFromItsFirstBytes() throws {
        let id = PacedClient.requestId(client: 1023, number: 42)
        let reply = Array("{\"v\":1,\"id\":\"\(id)\",\"ok\":true,\"result\":{}}".utf8)
        let scanned = try #require(ReplyScan().idNumber(in: reply))
        #expect(UInt64(scanned.number) == id)
        #expect(ReplyScan().succeeds(reply, after: scanned.end))
    }

    @Test func aThreadsClientsSpreadTheRunsSendsEvenly() {
        // Four clients, one send a second each: the run's sends are a quarter of a second apart.
        let times: [UInt64] = (0..<2).flatMap { slot in
            (0..<4).map { StressThreadPlan.intendedTime(start: 1_000, interval: 1e9, client: $0, of: 4, slot: slot) }
        }
        let expected: [UInt64] = (0..<8).map { 1_000 + 250_000_000 * UInt64($0) }
        #expect(times == expected)
    }
}

import Testing
@testable import LoadEngine

@Suite("Paced clients sharing a load thread")
struct PacedClientTests {
    @Test(arguments: [(0, 1), (7, 42), (1023, (UInt64(1) << 40) - 1)] as [(Int, UInt64)])
    func aRequestIdNamesItsClientAndNumber(_ client: Int, _ number: UInt64) throws {
        let parsed = try #require(PacedClient.parse(id: "c\(client)-\(number)"))
        #expect(parsed.client == client && parsed.number == number)
    }

    @Test(arguments: ["", "c", "c-1", "c1-", "x1-2", "c1_2", "c-1-2", "c1-2-3", "c1-\(UInt64(1) << 40)", "c99999999-1", "1-2"])
    func anIdNoClientSentIsRefused(_ id: String) {
        #expect(PacedClient.parse(id: id) == nil)
    }

    @Test func pendingKeysOfTwoClientsNeverCollide() {
        let keys = (0..<64).flatMap { client in (1...64).map { PacedClient.pendingKey(client: client, number: UInt64($0)) } }
        #expect(Set(keys).count == 64 * 64)
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

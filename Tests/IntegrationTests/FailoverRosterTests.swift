import Foundation
@testable import RestaurantClient
import Testing
import WireContract

/// The failover bookkeeping without sockets or clocks: cool-downs, their end, the order a call
/// tries instances in, and which error replies allow a resend.
@Suite struct FailoverRosterTests {
    private static func stamp(inode: UInt64) -> EndpointsFileStamp {
        var info = stat()
        info.st_ino = numericCast(inode)
        return EndpointsFileStamp(info)
    }

    @Test func coolDownsDoubleUpToTheCapAndEndOnAReply() {
        let options = RestaurantClientOptions(coolDown: .seconds(1), maxCoolDown: .seconds(4))
        let start = ContinuousClock.now
        var health = InstanceHealth()
        #expect(health.isLive(at: start, fileStamp: nil))
        for (failure, expected) in [1, 2, 4, 4, 4].enumerated() {
            let at = start + .seconds(100 * failure)
            health.recordFailure(at: at, fileStamp: nil, options: options)
            #expect(health.downUntil == at + .seconds(expected), "failure \(failure + 1)")
            #expect(!health.isLive(at: at + .seconds(expected) - .milliseconds(1), fileStamp: nil))
            #expect(health.isLive(at: at + .seconds(expected), fileStamp: nil))
        }
        health.recordReply()
        #expect(health.consecutiveFailures == 0)
        #expect(health.isLive(at: start, fileStamp: nil))
    }

    @Test func aChangedEndpointsFileEndsTheCoolDown() {
        let options = RestaurantClientOptions(coolDown: .seconds(60))
        let now = ContinuousClock.now
        var health = InstanceHealth()
        health.recordFailure(at: now, fileStamp: Self.stamp(inode: 1), options: options)
        #expect(!health.isLive(at: now, fileStamp: Self.stamp(inode: 1)))
        #expect(health.isLive(at: now, fileStamp: Self.stamp(inode: 2)), "svcd rewrote the file: restarted")
        #expect(health.isLive(at: now, fileStamp: nil) == true, "the file vanished: a change, tried (and found unreadable)")

        var missing = InstanceHealth()
        missing.recordFailure(at: now, fileStamp: nil, options: options)
        #expect(!missing.isLive(at: now, fileStamp: nil), "still no file: still down")
        #expect(missing.isLive(at: now, fileStamp: Self.stamp(inode: 3)), "the file appeared")
    }

    @Test func callsTryLiveInstancesInRoundRobinOrderThenTheLongestFailed() {
        let roster = FailoverRoster(
            (0..<4).map { .addresses([.getMenu: "tcp://127.0.0.1:\(7000 + $0)"]) },
            options: RestaurantClientOptions(coolDown: .seconds(60)))
        let untried = [-1, -1, -1, -1]
        #expect(roster.failoverOrder(turn: 2, lastTried: untried, excluded: []) == [2, 3, 0, 1])
        #expect(roster.failoverOrder(turn: 2, lastTried: untried, excluded: [3]) == [2, 0, 1])
        // Tried instances come after untried ones, the least recently tried first.
        #expect(roster.failoverOrder(turn: 0, lastTried: [1, 0, -1, -1], excluded: []) == [2, 3, 1, 0])
        roster.recordFailure(3, fileStamp: nil)
        roster.recordFailure(1, fileStamp: nil)
        #expect(!roster.isLive(3) && !roster.isLive(1) && roster.isLive(0))
        #expect(roster.failoverOrder(turn: 1, lastTried: untried, excluded: []) == [2, 0, 3, 1])
        roster.recordFailure(0, fileStamp: nil)
        roster.recordFailure(2, fileStamp: nil)
        #expect(roster.failoverOrder(turn: 0, lastTried: untried, excluded: []) == [3, 1, 0, 2], "all down: oldest failure first")
        roster.recordReply(1)
        #expect(roster.failoverOrder(turn: 0, lastTried: untried, excluded: []) == [1, 3, 0, 2])
        #expect((0..<3).map { _ in roster.nextTurn() } == [0, 1, 2])
    }

    @Test func turnsSpreadEvenlyOverTheLiveInstances() {
        let roster = FailoverRoster(
            (0..<3).map { .addresses([.getMenu: "tcp://127.0.0.1:\(7000 + $0)"]) },
            options: RestaurantClientOptions(coolDown: .seconds(60)))
        let untried = [-1, -1, -1]
        let firstChoices = { (0..<6).map { roster.failoverOrder(turn: $0, lastTried: untried, excluded: [])[0] } }
        #expect(firstChoices() == [0, 1, 2, 0, 1, 2])
        roster.recordFailure(0, fileStamp: nil)
        #expect(firstChoices() == [1, 2, 1, 2, 1, 2], "the dead instance's share goes to all live ones, not to its neighbour")
        #expect(roster.failoverOrder(turn: 0, lastTried: untried, excluded: []) == [1, 2, 0])
    }

    @Test func onlyTransientCodesAndAKeyedWriteOfUnknownOutcomeAreResent() {
        func job(_ useCase: UseCaseName, key: String?) -> FreelanceExchange.Job {
            FreelanceExchange.Job(
                useCase: useCase, requestID: "r", idempotencyKey: key, body: [], options: RestaurantClientOptions(), onAttempt: { _ in })
        }
        let keyedWrite = job(.registerUser, key: "k-1")
        for code in WireErrorCode.allCases {
            #expect(FreelanceExchange.mayResend(after: code, outcome: nil, keyedWrite) == code.isSafeToResend, "\(code)")
        }
        #expect(FreelanceExchange.mayResend(after: .internal, outcome: .unknown, keyedWrite))
        #expect(!FreelanceExchange.mayResend(after: .internal, outcome: .unknown, job(.registerUser, key: nil)), "no key: a resend could apply twice")
        #expect(!FreelanceExchange.mayResend(after: .internal, outcome: .unknown, job(.getRestaurant, key: "k-2")), "a read has no commit")
        #expect(!FreelanceExchange.mayResend(after: nil, outcome: nil, keyedWrite), "a code this version does not know")
    }

    @Test func attemptBudgetAndWorstCase() {
        let defaults = RestaurantClientOptions()
        #expect(defaults.maxAttempts(instanceCount: 1) == 3)
        #expect(defaults.maxAttempts(instanceCount: 3) == 3)
        #expect(defaults.maxAttempts(instanceCount: 5) == 5)
        #expect(defaults.worstCaseDuration(instanceCount: 1) == .milliseconds(15_150))
        let none = RestaurantClientOptions(timeout: .seconds(1), retries: 0, backoff: .milliseconds(100))
        #expect(none.maxAttempts(instanceCount: 1) == 1)
        #expect(none.worstCaseDuration(instanceCount: 1) == .seconds(1))
        #expect(none.worstCaseDuration(instanceCount: 2) == .milliseconds(2_100))
        #expect(RestaurantClientOptions(retries: -3).retries == 0)
    }
}

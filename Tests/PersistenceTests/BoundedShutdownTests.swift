import Synchronization
import Testing
@testable import Persistence

/// A store's close must end even when a task it waits for never does (a query postgres-nio
/// dropped keeps its connection leased, and the pool's shutdown waits for it).
@Suite struct BoundedShutdownTests {
    private final class Flag: Sendable {
        let value = Mutex(false)
    }

    @Test func workThatNeverEndsIsLeftBehindAtTheLimit() async {
        let clock = ContinuousClock()
        let start = clock.now
        let finished = await BoundedShutdown.run(atMost: .milliseconds(200)) {
            // Ignores cancellation, like a query its connection dropped.
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        }
        let took = clock.now - start
        #expect(!finished)
        #expect(took >= .milliseconds(200) && took < .seconds(5), "returned after \(took)")
    }

    @Test func workThatEndsIsWaitedForAndReportedFinished() async {
        let done = Flag()
        let finished = await BoundedShutdown.run(atMost: .seconds(30)) {
            try? await Task.sleep(for: .milliseconds(50))
            done.value.withLock { $0 = true }
        }
        #expect(finished)
        #expect(done.value.withLock { $0 })
    }
}

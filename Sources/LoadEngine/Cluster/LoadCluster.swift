import BenchmarkSupport
import Synchronization

/// The svcd instances of a load run and which of them the run has found down, shared by the
/// client threads (which move off an instance that stops answering) and by the set-up, the
/// resolution and the checks (which use the first live instance).
///
/// A mark is for the rest of the run: an instance that comes back is not used again (except when
/// every instance is marked, see ``firstLive(from:)``). With a single instance nothing is ever
/// marked: there is nowhere to move to, so the run behaves as it always did.
public final class LoadCluster: Sendable {
    /// Why and when an instance was taken to be down.
    public struct DownMark: Sendable {
        /// What was seen: `connection lost`, `no answer within 5 s`, `answered unavailable`, …
        public let reason: String
        /// When, on the monotonic clock; `nil` when it was not running at the start.
        public let atNanoseconds: UInt64?
    }

    /// The instances, in the order they were named.
    public let instances: [LoadInstance]
    private let marks: Mutex<[DownMark?]>

    /// Instances not running at the start are marked down from the start.
    public init(instances: [LoadInstance]) {
        self.instances = instances
        let canFailOver = instances.count > 1
        marks = Mutex(instances.map { instance in
            guard canFailOver, instance.endpoints == nil else { return nil }
            return DownMark(reason: "not running at the start (\(instance.absence ?? "no endpoints.json"))", atNanoseconds: nil)
        })
    }

    /// Whether there are other instances to move to.
    var canFailOver: Bool { instances.count > 1 }

    /// Takes `index` to be down (the first reason is kept). No effect with a single instance.
    func markDown(_ index: Int, reason: String) {
        guard canFailOver else { return }
        let now = MonotonicClock.nanoseconds()
        marks.withLock { marks in
            if marks[index] == nil { marks[index] = DownMark(reason: reason, atNanoseconds: now) }
        }
    }

    /// Whether `index` is marked down.
    func isDown(_ index: Int) -> Bool {
        marks.withLock { $0[index] != nil }
    }

    /// The first instance from `start` on (wrapping around) that is not marked down; when every
    /// instance is marked, the first one from `start` on that was running at the start (one may
    /// have come back, and the caller has nothing better to try).
    func firstLive(from start: Int) -> Int {
        let order = (0..<instances.count).map { (start + $0) % instances.count }
        let marked = marks.withLock { $0 }
        return order.first { marked[$0] == nil } ?? order.first { instances[$0].endpoints != nil } ?? start
    }

    /// The first instance after `index` (wrapping around, never `index` itself) that is not
    /// marked down, if there is one.
    func nextLive(after index: Int) -> Int? {
        let marked = marks.withLock { $0 }
        return (1..<max(instances.count, 1)).map { (index + $0) % instances.count }.first { marked[$0] == nil }
    }

    /// Every instance's mark, `nil` for those not marked.
    public func downMarks() -> [DownMark?] {
        marks.withLock { $0 }
    }
}

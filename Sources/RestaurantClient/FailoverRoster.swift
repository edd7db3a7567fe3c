import Synchronization

/// The instances of one client with their shared health: which instance a call starts with
/// (round-robin) and in which order it fails over (Freelance, ZeroMQ Guide ch. 4: the client,
/// not a broker, spreads requests and skips instances that failed).
///
/// Read by the client's I/O threads concurrently; the health table is behind a mutex, the
/// round-robin cursor is an atomic.
final class FailoverRoster: Sendable {
    let instances: [InstanceEndpoints]
    private let options: RestaurantClientOptions
    private let health: Mutex<[InstanceHealth]>
    private let rotation = Atomic<UInt>(0)

    init(_ locations: [SvcdInstance], options: RestaurantClientOptions) {
        instances = locations.map(InstanceEndpoints.init)
        self.options = options
        health = Mutex(Array(repeating: InstanceHealth(), count: locations.count))
    }

    var count: Int { instances.count }

    /// The next call's turn: calls take consecutive turns, and a call's turn picks the live
    /// instance it starts with, so calls spread evenly over the instances that are live.
    func nextTurn() -> Int {
        Int(truncatingIfNeeded: rotation.wrappingAdd(1, ordering: .relaxed).oldValue & UInt(Int.max))
    }

    /// The instances to try next, best first, leaving out `excluded`: the live ones (never tried
    /// by this call before those it tried, the least recently tried first, ties in round-robin
    /// order starting at the live instance that `turn` picks), then those cooling down, the
    /// longest-failed first.
    /// - Parameter lastTried: per instance, the number of this call's attempt that last used
    ///   it, or -1.
    func failoverOrder(turn: Int, lastTried: [Int], excluded: Set<Int>) -> [Int] {
        let candidates = instances.indices.filter { !excluded.contains($0) }
        // stat() outside the lock: a slow file system must not hold up other calls.
        let stamps = candidates.map { instances[$0].currentStamp() }
        let now = ContinuousClock.now
        var live: [Int] = []
        var down: [(index: Int, failedAt: ContinuousClock.Instant)] = []
        health.withLock { table in
            for (position, index) in candidates.enumerated() {
                let entry = table[index]
                if entry.isLive(at: now, fileStamp: stamps[position]) {
                    live.append(index)
                } else {
                    down.append((index, entry.failedAt ?? now))
                }
            }
        }
        let n = instances.count
        let firstLive = live.isEmpty ? 0 : turn % live.count
        let liveRanked = live.enumerated().map { position, index in
            (index: index, rank: lastTried[index], position: (position - firstLive + live.count) % live.count)
        }
        let downRanked = down.map { entry in
            (index: entry.index, failedAt: entry.failedAt, position: (entry.index - turn % n + n) % n)
        }
        let liveOrder = liveRanked.sorted { ($0.rank, $0.position) < ($1.rank, $1.position) }
        let downOrder = downRanked.sorted { $0.failedAt != $1.failedAt ? $0.failedAt < $1.failedAt : $0.position < $1.position }
        return liveOrder.map(\.index) + downOrder.map(\.index)
    }

    /// Whether the instance is out of its cool-down now (tests and diagnostics).
    func isLive(_ index: Int) -> Bool {
        let stamp = instances[index].currentStamp()
        return health.withLock { $0[index].isLive(at: .now, fileStamp: stamp) }
    }

    /// The instance timed out, could not be reached or answered `unavailable`.
    func recordFailure(_ index: Int, fileStamp: EndpointsFileStamp?) {
        let now = ContinuousClock.now
        health.withLock { $0[index].recordFailure(at: now, fileStamp: fileStamp, options: options) }
    }

    /// The instance answered (anything but `unavailable`).
    func recordReply(_ index: Int) {
        health.withLock { $0[index].recordReply() }
    }
}

import Synchronization

/// The ``BucketedTimer``s of one ``ServiceMetricsFactory``, by metric name, then label set: a
/// name and label set asked for twice get the same timer, as in a Prometheus registry.
final class BucketedTimers: Sendable {
    private let families = Mutex<[String: [BucketedTimer]]>([:])
    private let buckets: [Duration]

    /// No timers yet; each will have `buckets`.
    init(buckets: [Duration]) {
        self.buckets = buckets
    }

    /// The timer named `name` with `labels`, made on first use.
    func timer(name: String, labels: [(String, String)]) -> BucketedTimer {
        families.withLock { families in
            if let existing = families[name]?.first(where: { Self.same($0.labels, labels) }) { return existing }
            let timer = BucketedTimer(name: name, labels: labels, buckets: buckets)
            families[name, default: []].append(timer)
            return timer
        }
    }

    /// Forgets `timer`: it is no longer in the exposition.
    func remove(_ timer: BucketedTimer) {
        families.withLock { families in
            families[timer.name]?.removeAll { $0 === timer }
            if families[timer.name]?.isEmpty == true { families[timer.name] = nil }
        }
    }

    /// Every family, by name: its `# TYPE` line, then each timer's lines.
    func emit(into buffer: inout [UInt8]) {
        let snapshot = families.withLock { $0 }
        for name in snapshot.keys.sorted() {
            buffer.append(contentsOf: "# TYPE \(name) histogram\n".utf8)
            for timer in snapshot[name] ?? [] { timer.emit(into: &buffer) }
        }
    }

    /// Whether two label sets are the same set (in any order).
    private static func same(_ a: [(String, String)], _ b: [(String, String)]) -> Bool {
        a.count == b.count && a.allSatisfy { pair in b.contains { $0 == pair } }
    }
}

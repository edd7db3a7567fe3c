import Metrics
import Prometheus
import Testing

@testable import ServiceApp

/// ``ServiceMetricsFactory``'s timers: the exposition swift-prometheus would write for the same
/// recordings, line for line, and the registry's for names it must rewrite.
@Suite struct ServiceMetricsFactoryTests {
    /// Durations on, beside and beyond the buckets' bounds, in nanoseconds.
    static let durations: [Int64] = [
        0, 1, 99_999, 100_000, 100_001, 249_999, 250_000, 2_500_000, 2_500_001, 999_999_999, 1_000_000_000, 9_999_999_999,
        10_000_000_000, 10_000_000_001, 3_600_000_000_000, 12_345,
    ]

    /// The lines of `text` that belong to metric `name`, in order.
    private func lines(of name: String, in text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix(name) || $0.hasPrefix("# TYPE \(name)") }
    }

    @Test func timersWriteWhatPrometheusWritesForTheSameRecordings() {
        let metrics = ServiceMetrics()
        let reference = PrometheusCollectorRegistry()
        var referenceFactory = PrometheusMetricsFactory(registry: reference)
        referenceFactory.defaultDurationHistogramBuckets = ServiceMetrics.durationBuckets
        // A family has label sets or none (the registry refuses both under one name).
        let sets: [(name: String, labels: [(String, String)], share: Int)] = [
            ("svc_test_duration_seconds", [("use_case", "GetRestaurant")], 1),
            ("svc_test_duration_seconds", [("use_case", #"odd "quoted" \ name"#), ("lane", "a")], 2),
            ("svc_test_plain_seconds", [], 3),
        ]
        for (name, labels, share) in sets {
            let timer = Timer(label: name, dimensions: labels, factory: metrics.factory)
            let twin = Timer(label: name, dimensions: labels, factory: referenceFactory)
            for (index, duration) in Self.durations.enumerated() where index % share == 0 {
                timer.recordNanoseconds(duration)
                twin.recordNanoseconds(duration)
            }
        }
        let ours = lines(of: "svc_test_", in: metrics.exposition())
        let theirs = lines(of: "svc_test_", in: String(decoding: reference.emitToBuffer(), as: UTF8.self))
        #expect(ours.count == 2 + 3 * (ServiceMetrics.durationBuckets.count + 3))
        // The registry orders label sets as its dictionary does: compared as sets of lines, with
        // each label set's lines checked in order below.
        #expect(Set(ours) == Set(theirs))
        #expect(ours.count == theirs.count)
        #expect(ours.contains(#"svc_test_duration_seconds_bucket{use_case="GetRestaurant",le="0.0001"} 5"#))
        #expect(ours.contains(#"svc_test_duration_seconds_bucket{use_case="GetRestaurant",le="+Inf"} 16"#))
        #expect(ours.contains(#"svc_test_duration_seconds_count{use_case="GetRestaurant"} 16"#))
    }

    @Test func aTimerAskedForTwiceIsOneHistogram() {
        let metrics = ServiceMetrics()
        Timer(label: "svc_twice_seconds", dimensions: [("a", "1"), ("b", "2")], factory: metrics.factory).recordNanoseconds(1_000)
        Timer(label: "svc_twice_seconds", dimensions: [("b", "2"), ("a", "1")], factory: metrics.factory).recordNanoseconds(2_000)
        let text = metrics.exposition()
        #expect(text.contains(#"svc_twice_seconds_count{a="1",b="2"} 2"#), "\(text)")
        #expect(lines(of: "svc_twice_seconds_count", in: text).count == 1, "\(text)")
    }

    @Test func aNamePrometheusMustRewriteIsLeftToTheRegistry() {
        let metrics = ServiceMetrics()
        #expect(!(metrics.factory.makeTimer(label: "library.wait-time", dimensions: []) is BucketedTimer))
        #expect(!(metrics.factory.makeTimer(label: "svc_wait_seconds", dimensions: [("lane-name", "a")]) is BucketedTimer))
        #expect(metrics.factory.makeTimer(label: "svc_wait_seconds", dimensions: [("lane_name", "a")]) is BucketedTimer)
    }

    @Test func aDestroyedTimerLeavesTheExposition() {
        let metrics = ServiceMetrics()
        let timer = Timer(label: "svc_gone_seconds", factory: metrics.factory)
        timer.recordNanoseconds(5_000)
        #expect(metrics.exposition().contains("svc_gone_seconds_count 1"))
        timer.destroy()
        #expect(!metrics.exposition().contains("svc_gone_seconds"))
    }
}

import Metrics
import Prometheus

/// The swift-metrics factory of ``ServiceMetrics``: every metric in its Prometheus registry, but
/// for `Timer`s, which are ``BucketedTimer``s (cheaper per recording; the same exposition).
///
/// A timer whose name or label names Prometheus would have to rewrite (not
/// `[a-zA-Z_:][a-zA-Z0-9_:]*`; a library's, through `MetricsSystem`) is left to the registry,
/// which rewrites them. A timer's name must not be any other metric's.
public struct ServiceMetricsFactory: MetricsFactory {
    /// Makes every metric but valid-named timers.
    let prometheus: PrometheusMetricsFactory
    /// The timers, for the exposition.
    let timers: BucketedTimers

    init(prometheus: PrometheusMetricsFactory, timerBuckets: [Duration]) {
        self.prometheus = prometheus
        timers = BucketedTimers(buckets: timerBuckets)
    }

    /// A ``BucketedTimer``, or the registry's histogram for a name it would rewrite.
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard Self.isValidName(label), dimensions.allSatisfy({ Self.isValidName($0.0) && !$0.0.hasPrefix("__") }) else {
            return prometheus.makeTimer(label: label, dimensions: dimensions)
        }
        return timers.timer(name: label, labels: dimensions)
    }

    /// Forgets a timer.
    public func destroyTimer(_ handler: any TimerHandler) {
        if let timer = handler as? BucketedTimer {
            timers.remove(timer)
        } else {
            prometheus.destroyTimer(handler)
        }
    }

    /// The registry's counter.
    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        prometheus.makeCounter(label: label, dimensions: dimensions)
    }

    /// The registry's counter.
    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        prometheus.makeFloatingPointCounter(label: label, dimensions: dimensions)
    }

    /// The registry's gauge or value histogram.
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        prometheus.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    /// The registry's gauge.
    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        prometheus.makeMeter(label: label, dimensions: dimensions)
    }

    /// Forgets a counter.
    public func destroyCounter(_ handler: any CounterHandler) {
        prometheus.destroyCounter(handler)
    }

    /// Forgets a counter.
    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        prometheus.destroyFloatingPointCounter(handler)
    }

    /// Forgets a recorder.
    public func destroyRecorder(_ handler: any RecorderHandler) {
        prometheus.destroyRecorder(handler)
    }

    /// Forgets a meter.
    public func destroyMeter(_ handler: any MeterHandler) {
        prometheus.destroyMeter(handler)
    }

    /// Whether Prometheus takes `name` as it is.
    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
        }
    }
}

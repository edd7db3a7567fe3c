import Domain
import Histogram
import Metrics
import Synchronization

/// The live stream's figures: written by the publishing task (per batch) and the stream's socket
/// thread (subscribers), readable from any thread; also fed to swift-metrics as
/// "svc_events_published_total", "svc_events_last_published_seq",
/// "svc_events_last_written_seq", "svc_event_subscribers" and the `Timer`
/// "svc_event_publish_lag_seconds" (a histogram in Prometheus).
final class EventStreamRecorder: Sendable {
    private struct State {
        var lastWritten: Int64 = 0
        var lastPublished: Int64 = 0
        var published = 0
        var subscribers = 0
        /// Milliseconds from write to publication.
        var lag = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000, numberOfSignificantValueDigits: .two)
    }

    private let state = Mutex(State())
    private let publishedCounter: Counter
    private let lastPublishedGauge: Gauge
    private let lastWrittenGauge: Gauge
    private let subscribersGauge: Gauge
    private let lagTimer: Timer

    init(metrics: any MetricsFactory) {
        publishedCounter = Counter(label: "svc_events_published_total", factory: metrics)
        lastPublishedGauge = Gauge(label: "svc_events_last_published_seq", factory: metrics)
        lastWrittenGauge = Gauge(label: "svc_events_last_written_seq", factory: metrics)
        subscribersGauge = Gauge(label: "svc_event_subscribers", factory: metrics)
        lagTimer = Timer(label: "svc_event_publish_lag_seconds", factory: metrics)
        // A scrape before the first event shows zeros, not missing series.
        lastPublishedGauge.record(0)
        lastWrittenGauge.record(0)
        subscribersGauge.record(0)
    }

    /// Where the log stood when the stream started: nothing before it is published.
    func starting(at seq: Int64) {
        state.withLock { state in
            state.lastWritten = seq
            state.lastPublished = seq
        }
        lastWrittenGauge.record(seq)
        lastPublishedGauge.record(seq)
    }

    /// `events` were published at `now`, when the log went up to `lastWritten`.
    func published(_ events: [LoggedEvent], at now: Timestamp, lastWritten: Int64) {
        guard let last = events.last?.seq else { return }
        let lags = events.map { max(0, now.millisecondsSinceEpoch - $0.at.millisecondsSinceEpoch) }
        let written = state.withLock { state in
            state.lastPublished = last
            state.lastWritten = max(state.lastWritten, lastWritten, last)
            state.published += events.count
            for lag in lags { state.lag.record(UInt64(max(lag, 1))) }
            return state.lastWritten
        }
        // The count last: a scrape that sees it sees the seqs and lags recorded with it.
        lastPublishedGauge.record(last)
        lastWrittenGauge.record(written)
        for lag in lags { lagTimer.recordMilliseconds(lag) }
        publishedCounter.increment(by: events.count)
    }

    /// The highest seq published (or passed over without subscribers).
    var lastPublished: Int64 {
        state.withLock { $0.lastPublished }
    }

    /// Subscribers connected now.
    var subscriberCount: Int {
        state.withLock { $0.subscribers }
    }

    /// The events up to `seq` were passed over: no subscriber was connected to receive them.
    func passed(upTo seq: Int64, lastWritten: Int64) {
        let written = state.withLock { state in
            state.lastPublished = max(state.lastPublished, seq)
            state.lastWritten = max(state.lastWritten, lastWritten, seq)
            return state.lastWritten
        }
        lastPublishedGauge.record(seq)
        lastWrittenGauge.record(written)
    }

    /// The stream's socket thread: `count` subscribers are connected now.
    func subscribers(_ count: Int) {
        state.withLock { $0.subscribers = count }
        subscribersGauge.record(count)
    }

    /// The figures now, with the log's end as `lastWritten` says it is.
    func snapshot(lastWritten: Int64) -> EventStreamStatistics {
        let copy = state.withLock { $0 }
        let lag = copy.lag.totalCount == 0 ? LatencySummary.zero : LatencySummary(
            p50: Double(copy.lag.valueAtPercentile(50)), p90: Double(copy.lag.valueAtPercentile(90)),
            p99: Double(copy.lag.valueAtPercentile(99)), max: Double(copy.lag.maxRecorded)
        )
        return EventStreamStatistics(
            lastWrittenSeq: max(copy.lastWritten, lastWritten), lastPublishedSeq: copy.lastPublished, published: copy.published,
            subscribers: copy.subscribers, lagMillis: lag
        )
    }
}

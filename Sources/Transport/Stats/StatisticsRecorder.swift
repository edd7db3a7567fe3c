import Histogram
import Metrics
import Synchronization
import WireContract

/// The statistics of one endpoint: written by its socket thread as replies are queued (one lock
/// per batch of replies, or per reply the thread answers itself), read from any thread.
///
/// A read takes the lock only to copy the state, which is cheap: the histogram's and the counts'
/// storage are copy-on-write, so the copy is two retains, and the socket thread's next record
/// pays for the one real copy (about 140 KB) outside the reader's way. The percentiles are
/// computed after the lock is released, so a reader never holds up the socket thread for longer
/// than the copy, and never waits for the socket thread to become idle.
///
/// Also feeds swift-metrics, through the factory it is given: a `Counter` "svc_requests_total"
/// per outcome and a `Timer` "svc_request_duration_seconds" (a histogram in Prometheus), all
/// created here once.
final class StatisticsRecorder: Sendable {
    /// Latencies above this (in microseconds) are recorded as this.
    static let highestTrackableMicros: UInt64 = 60_000_000

    /// The outcome labels, indexed like the counts: `ok` first, then every wire error code.
    static let outcomeLabels: [String] = ["ok"] + WireErrorCode.allCases.map(\.rawValue)
    private static let codes = WireErrorCode.allCases

    private struct State {
        /// Latencies in microseconds (rounded up, at least 1).
        var histogram = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: StatisticsRecorder.highestTrackableMicros, numberOfSignificantValueDigits: .three
        )
        /// Answered requests by outcome index (see ``outcomeLabels``).
        var counts = [Int](repeating: 0, count: StatisticsRecorder.outcomeLabels.count)
        /// The longest wait, in nanoseconds, of a request that ran (see ``OutboundReply/waited``).
        var longestWait: Int64 = 0
        /// Answered requests by caller number, then by outcome index (when callers are counted).
        var callerCounts: [[Int]] = []
        /// The "svc_caller_requests_total" counters, made at a caller's first answer of an outcome.
        var callerCounters: [[Counter?]] = []
    }

    private let state = Mutex(State())
    /// swift-metrics counters, indexed like ``outcomeLabels``.
    private let requestCounters: [Counter]
    private let duration: Timer
    private let useCase: String
    private let metrics: any MetricsFactory
    /// Names the callers counted; `nil`: callers are not counted (the admin endpoint).
    private let callers: CallerDirectory?
    /// Whether answers are counted per caller as they come (`--client-keys`). Otherwise every
    /// caller is `anonymous`, whose counts are the endpoint's own (``State/counts``), and whose
    /// counters ``anonymousCounters`` are incremented beside ``requestCounters``.
    private let countsEachCaller: Bool
    /// `svc_caller_requests_total{caller="anonymous"}` by outcome index, without `--client-keys`.
    private let anonymousCounters: [Counter]

    /// Creates empty statistics and, from `metrics`, the metrics of the use case named `useCase`;
    /// with `callers`, counts by caller too (``UseCaseStatistics/callers`` and the counter
    /// `svc_caller_requests_total{caller, use_case, code}`).
    init(useCase: String, metrics: any MetricsFactory, callers: CallerDirectory? = nil) {
        self.useCase = useCase
        self.metrics = metrics
        self.callers = callers
        countsEachCaller = callers?.checksKeys == true
        anonymousCounters = callers == nil || callers?.checksKeys == true ? [] : Self.outcomeLabels.map { outcome in
            Counter(label: CallerGrant.requestsMetric, dimensions: [("caller", CallerGrant.anonymous), ("use_case", useCase), ("code", outcome)], factory: metrics)
        }
        requestCounters = Self.outcomeLabels.map { outcome in
            Counter(label: "svc_requests_total", dimensions: [("use_case", useCase), ("outcome", outcome)], factory: metrics)
        }
        duration = Timer(label: "svc_request_duration_seconds", dimensions: [("use_case", useCase)], factory: metrics)
    }

    /// Socket thread: records replies from the host, all queued for sending at `now`.
    func record(_ replies: [OutboundReply], queuedAt now: Duration) {
        guard !replies.isEmpty else { return }
        let countsCallers = countsEachCaller
        state.withLock { state in
            // A batch's replies are mostly one caller's, with one outcome: counted per run.
            var run = (caller: 0, index: 0, count: 0)
            // Each reply's fields read in place: `for reply in replies` would copy every reply,
            // retaining and releasing its envelope and body.
            for position in replies.indices {
                state.histogram.record(Self.micros(nanoseconds: Self.nanoseconds(now - replies[position].receivedAt)))
                let index = Self.index(replies[position].outcome)
                state.counts[index] += 1
                if countsCallers {
                    let caller = replies[position].caller
                    if run.count > 0, run.caller == caller, run.index == index {
                        run.count += 1
                    } else {
                        if run.count > 0 { countCaller(run.caller, run.index, run.count, in: &state) }
                        run = (caller, index, 1)
                    }
                }
                if let waited = replies[position].waited {
                    state.longestWait = max(state.longestWait, Self.nanoseconds(waited))
                }
            }
            if run.count > 0 { countCaller(run.caller, run.index, run.count, in: &state) }
        }
        var succeeded = 0
        for position in replies.indices {
            duration.recordNanoseconds(Self.nanoseconds(now - replies[position].receivedAt))
            if let code = replies[position].outcome {
                requestCounters[Self.index(code)].increment()
                if !anonymousCounters.isEmpty { anonymousCounters[Self.index(code)].increment() }
            } else {
                succeeded += 1
            }
        }
        if succeeded > 0 {
            requestCounters[0].increment(by: succeeded)
            if !anonymousCounters.isEmpty { anonymousCounters[0].increment(by: succeeded) }
        }
    }

    /// Socket thread: records one request it answered itself (`outcome` is the error code).
    func record(receivedAt: Duration, queuedAt now: Duration, outcome: WireErrorCode?, caller: Int = CallerDirectory.anonymousIndex) {
        let index = Self.index(outcome)
        let latency = Self.nanoseconds(now - receivedAt)
        state.withLock { state in
            state.histogram.record(Self.micros(nanoseconds: latency))
            state.counts[index] += 1
            if countsEachCaller { countCaller(caller, index, 1, in: &state) }
        }
        duration.recordNanoseconds(latency)
        requestCounters[index].increment()
        if !anonymousCounters.isEmpty { anonymousCounters[index].increment() }
    }

    /// Counts `count` answers of outcome `index` to caller number `caller`, on its counter too
    /// (made on first use: the callers and their names are known only as requests arrive).
    private func countCaller(_ caller: Int, _ index: Int, _ count: Int, in state: inout State) {
        if caller >= state.callerCounts.count {
            let outcomes = Self.outcomeLabels.count
            state.callerCounts.append(contentsOf: repeatElement([Int](repeating: 0, count: outcomes), count: caller + 1 - state.callerCounts.count))
            state.callerCounters.append(contentsOf: repeatElement([Counter?](repeating: nil, count: outcomes), count: caller + 1 - state.callerCounters.count))
        }
        state.callerCounts[caller][index] += count
        if let counter = state.callerCounters[caller][index] {
            counter.increment(by: count)
        } else {
            let counter = Counter(label: CallerGrant.requestsMetric, dimensions: [
                ("caller", callers?.name(at: caller) ?? CallerGrant.anonymous), ("use_case", useCase), ("code", Self.outcomeLabels[index]),
            ], factory: metrics)
            counter.increment(by: count)
            state.callerCounters[caller][index] = counter
        }
    }

    /// A snapshot, with `inFlight` and `droppedReplies` as given; safe from any thread.
    func snapshot(inFlight: Int, droppedReplies: Int) -> UseCaseStatistics {
        let copy = state.withLock { $0 }
        var byCaller: [String: [String: Int]] = [:]
        let callerCounts = countsEachCaller || callers == nil ? copy.callerCounts : [copy.counts]
        for (caller, counts) in callerCounts.enumerated() where counts.contains(where: { $0 > 0 }) {
            let name = callers?.name(at: caller) ?? CallerGrant.anonymous
            for (index, count) in counts.enumerated() where count > 0 {
                byCaller[name, default: [:]][Self.outcomeLabels[index], default: 0] += count
            }
        }
        var errors: [String: Int] = [:]
        for index in 1..<copy.counts.count where copy.counts[index] > 0 {
            errors[Self.outcomeLabels[index]] = copy.counts[index]
        }
        let histogram = copy.histogram
        let latency = histogram.totalCount == 0 ? LatencySummary.zero : LatencySummary(
            p50: Double(histogram.valueAtPercentile(50)),
            p90: Double(histogram.valueAtPercentile(90)),
            p99: Double(histogram.valueAtPercentile(99)),
            max: Double(histogram.maxRecorded)
        )
        return UseCaseStatistics(requests: copy.counts.reduce(0, +), errors: errors, inFlight: inFlight, droppedReplies: droppedReplies, latencyMicros: latency,
            longestWaitMicros: Int((copy.longestWait + 999) / 1000), callers: byCaller
        )
    }

    /// The index of an outcome in ``outcomeLabels``: 0 for success.
    private static func index(_ outcome: WireErrorCode?) -> Int {
        guard let outcome else { return 0 }
        return codes.firstIndex(of: outcome)! + 1
    }

    /// Whole microseconds, rounded up, at least 1 and at most ``highestTrackableMicros``.
    private static func micros(nanoseconds: Int64) -> UInt64 {
        let micros = UInt64(max(nanoseconds, 0) / 1000 + (nanoseconds % 1000 > 0 ? 1 : 0))
        return min(max(micros, 1), highestTrackableMicros)
    }

    /// Whole nanoseconds, clamped to `0...Int64.max`. Per reply on the socket thread, so it
    /// avoids `Duration.components` (a 128-bit division) for any latency below 9 s.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let attoseconds = duration.attoseconds
        guard attoseconds > 0 else { return 0 }
        if attoseconds <= Int128(Int64.max) {
            return Int64(truncatingIfNeeded: attoseconds) / 1_000_000_000
        }
        let nanoseconds = attoseconds / 1_000_000_000
        return nanoseconds > Int128(Int64.max) ? .max : Int64(truncatingIfNeeded: nanoseconds)
    }
}

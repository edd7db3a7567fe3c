import Metrics
import Prometheus
import Synchronization

/// A Prometheus histogram of durations that a swift-metrics `Timer` records into: one count per
/// bucket, the sum and the count, under one lock, compared as whole nanoseconds.
///
/// It stands in for swift-prometheus's `DurationHistogram`, whose `record` compares the value with
/// every bucket as a `Duration` (out of line, 128-bit) on each call: about 700 instructions a
/// reply on an endpoint's socket thread, 4 % of a pipelined GetRestaurant (callgrind, `svcbench`).
/// Its exposition is that of swift-prometheus, number for number.
final class BucketedTimer: TimerHandler, Sendable {
    /// The metric's name.
    let name: String
    /// Its labels, as given.
    let labels: [(String, String)]
    /// The buckets' upper bounds, ascending, in nanoseconds.
    private let bounds: [Int64]
    /// The bounds as Prometheus writes them (`le="…"`).
    private let boundTexts: [String]
    /// ``labels`` as written in every line (`name="value",…`), and that followed by the comma
    /// before a bucket's `le`: written once, not at every exposition.
    private let renderedLabels: String
    private let bucketLabelsPrefix: String

    private struct State {
        /// Durations by the first bucket that holds them; the last index: above every bound.
        var counts: [Int]
        /// The sum of the durations, in nanoseconds (saturating).
        var sum: Int64 = 0
    }

    private let state: Mutex<State>

    /// An empty histogram named `name` with `labels`, of the buckets `buckets` (ascending).
    init(name: String, labels: [(String, String)], buckets: [Duration]) {
        self.name = name
        self.labels = labels
        bounds = buckets.map { bucket in
            let (seconds, attoseconds) = bucket.components
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }
        boundTexts = buckets.map(\.bucketRepresentation)
        renderedLabels = Self.render(labels)
        bucketLabelsPrefix = renderedLabels.isEmpty ? "" : renderedLabels + ","
        state = Mutex(State(counts: [Int](repeating: 0, count: buckets.count + 1)))
    }

    /// Counts one duration of `duration` nanoseconds.
    func recordNanoseconds(_ duration: Int64) {
        var index = 0
        while index < bounds.count, bounds[index] < duration { index += 1 }
        state.withLock { state in
            state.counts[index] += 1
            let (sum, overflow) = state.sum.addingReportingOverflow(duration)
            state.sum = overflow ? (duration > 0 ? .max : .min) : sum
        }
    }

    /// Appends the histogram's lines (`_bucket`, cumulative, then `_sum` and `_count`) to
    /// `buffer`, as swift-prometheus writes a histogram's.
    func emit(into buffer: inout [UInt8]) {
        let (counts, sum) = state.withLock { ($0.counts, $0.sum) }
        var cumulative = 0
        for (index, bound) in boundTexts.enumerated() {
            cumulative += counts[index]
            line(name, "_bucket", bucketLabelsPrefix + "le=\"\(bound)\"", "\(cumulative)", into: &buffer)
        }
        let total = cumulative + counts[counts.count - 1]
        line(name, "_bucket", bucketLabelsPrefix + "le=\"+Inf\"", "\(total)", into: &buffer)
        line(name, "_sum", renderedLabels, Duration.nanoseconds(sum).bucketRepresentation, into: &buffer)
        line(name, "_count", renderedLabels, "\(total)", into: &buffer)
    }

    private func line(_ name: String, _ suffix: String, _ labels: String, _ value: String, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: name.utf8)
        buffer.append(contentsOf: suffix.utf8)
        if !labels.isEmpty {
            buffer.append(UInt8(ascii: "{"))
            buffer.append(contentsOf: labels.utf8)
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: value.utf8)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// `name="value",…`, each value escaped as the text format requires.
    private static func render(_ labels: [(String, String)]) -> String {
        labels.map { name, value in
            var escaped = ""
            for character in value.unicodeScalars {
                switch character {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return "\(name)=\"\(escaped)\""
        }.joined(separator: ",")
    }
}

import Foundation
import LoadEngine
import Histogram

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The live progress line on stderr: redrawn in place every second on a terminal, one plain
/// line every five seconds otherwise (logs, CI).
struct ProgressLine {
    let enabled: Bool
    let totalSeconds: Double
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let state = LineState()

    init(enabled: Bool, totalSeconds: Double) {
        self.enabled = enabled
        self.totalSeconds = totalSeconds
    }

    /// Mutable state behind a `let` (the line is only used from the main thread).
    private final class LineState {
        var sent = 0
        var printedAt = -1
        var drew = false
    }

    func show(elapsed: Double, tally: StressTally, inFlight: Int, recent: Histogram<UInt64>) {
        guard enabled else { return }
        let second = Int(elapsed)
        let rate = tally.sent - state.sent
        state.sent = tally.sent
        if !isTerminal {
            guard second >= state.printedAt + 5 || state.printedAt < 0 else { return }
        }
        state.printedAt = second
        let latency = recent.totalCount > 0
            ? "last 1s p50 \(StressReport.milliseconds(recent.valueAtPercentile(50))) p99 \(StressReport.milliseconds(recent.valueAtPercentile(99)))"
            : "last 1s p99 -"
        let phase = elapsed <= totalSeconds ? "\(min(second, Int(totalSeconds)))s/\(Int(totalSeconds.rounded(.up)))s" : "draining"
        let text = "[\(phase)] sent \(StressReport.grouped(tally.sent)) (\(StressReport.grouped(rate))/s) ok \(StressReport.grouped(tally.ok)) "
            + "refused \(StressReport.grouped(tally.refused)) transient \(tally.transient) errors \(tally.unexpected) "
            + "timeouts \(tally.timedOut) in flight \(inFlight) \(latency)" + (tally.failovers > 0 ? " moved \(tally.failovers)" : "")
        if isTerminal {
            FileHandle.standardError.write(Data(("\r" + text + "\u{1B}[K").utf8))
            state.drew = true
        } else {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// Ends the redrawn line.
    func finish() {
        if enabled, isTerminal, state.drew { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

import Foundation
import Histogram
import LoadEngine
import WireJSON

/// `svcctl stress --samples FILE`: one JSON object per line every `--sample-interval` (and one for
/// the rest of the run at its end), with the counts so far and the latency percentiles of that
/// interval alone, for long runs (soaks) whose
/// tail latency is plotted over time.
struct StressSampleLog {
    private let state: State?

    /// Mutable state behind a `let` (the log is only used from the thread that reports progress).
    private final class State {
        let handle: FileHandle
        let intervalSeconds: Double
        var nextSampleAt: Double
        var window: Histogram<UInt64>?
        /// The `sent` count of the last line written.
        var lastSent = -1

        init(handle: FileHandle, intervalSeconds: Double) {
            self.handle = handle
            self.intervalSeconds = intervalSeconds
            self.nextSampleAt = intervalSeconds
        }
    }

    /// A log writing to `path` (created, or emptied), or none when `path` is `nil`; exit 64 when
    /// the file cannot be created.
    init(path: String?, intervalSeconds: Double) throws(CtlFailure) {
        guard let path else {
            state = nil
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CtlFailure(ExitStatus.usage, "--samples: cannot create \(path)")
        }
        state = State(handle: handle, intervalSeconds: intervalSeconds)
    }

    /// Adds a progress snapshot; writes a line when an interval is complete, and for the run's
    /// last snapshot a line for the rest (a shorter interval) if anything was sent or answered in
    /// it: the last line's counts are the run's.
    func add(_ snapshot: StressProgressSnapshot) {
        guard let state else { return }
        if state.window == nil {
            state.window = snapshot.recent
        } else {
            state.window?.add(snapshot.recent)
        }
        guard let window = state.window,
            snapshot.elapsedSeconds >= state.nextSampleAt
                || (snapshot.isFinal && (window.totalCount > 0 || snapshot.tally.sent != state.lastSent))
        else { return }
        let tally = snapshot.tally
        var line = JSONObject()
        line.append(key: "second", value: .double((snapshot.elapsedSeconds * 10).rounded() / 10))
        line.append(key: "sent", value: .int(tally.sent))
        line.append(key: "ok", value: .int(tally.ok))
        line.append(key: "refused", value: .int(tally.refused))
        line.append(key: "transient", value: .int(tally.transient))
        line.append(key: "errors", value: .int(tally.unexpected))
        line.append(key: "timeouts", value: .int(tally.timedOut))
        line.append(key: "inFlight", value: .int(snapshot.inFlight))
        line.append(key: "answered", value: .int(Int(window.totalCount)))
        if window.totalCount > 0 {
            line.append(key: "p50Ms", value: .double(Self.milliseconds(window.valueAtPercentile(50))))
            line.append(key: "p99Ms", value: .double(Self.milliseconds(window.valueAtPercentile(99))))
            line.append(key: "maxMs", value: .double(Self.milliseconds(window.max)))
        }
        state.handle.write(Data((JSONValue.object(line).description + "\n").utf8))
        state.window = nil
        state.lastSent = tally.sent
        while state.nextSampleAt <= snapshot.elapsedSeconds { state.nextSampleAt += state.intervalSeconds }
    }

    /// Microseconds as milliseconds with three decimals.
    private static func milliseconds(_ micros: UInt64) -> Double { Double(micros) / 1000 }
}

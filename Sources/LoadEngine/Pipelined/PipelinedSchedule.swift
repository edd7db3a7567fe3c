/// How long a ``PipelinedClient`` sends and which of its replies count (are timed and tallied).
public enum PipelinedSchedule: Sendable {
    /// Warm up, then measure a window: the replies that arrive inside it count; no request is
    /// sent after it ends (the ones in flight are awaited, not counted).
    case window(warmupNanoseconds: UInt64, windowNanoseconds: UInt64)
    /// Exactly `count` requests, no warm-up; every reply counts, and the window runs from the
    /// first send to the last reply.
    case requests(Int)
    /// Send for `nanoseconds`, then await what is in flight; every reply counts, and the window
    /// runs from the first send to the last reply.
    case sendFor(nanoseconds: UInt64)
    /// Phases set by the caller: replies count while it is measuring; sending stops when it is
    /// stopping. The caller measures the window itself.
    case phased(LoadPhase)
}

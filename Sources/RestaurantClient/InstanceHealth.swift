/// What a client knows about one instance's recent failures: whether it is cooling down, and
/// since when.
struct InstanceHealth: Sendable {
    /// Failures since the last reply other than `unavailable`.
    private(set) var consecutiveFailures = 0
    /// The end of the cool-down; `nil` while healthy.
    private(set) var downUntil: ContinuousClock.Instant?
    /// When the last failure happened; orders instances that are all down.
    private(set) var failedAt: ContinuousClock.Instant?
    /// The version of the instance's `endpoints.json` the failed attempt used (`nil` for a
    /// fixed map or a missing file).
    private(set) var stampAtFailure: EndpointsFileStamp?

    /// Whether calls should use the instance now: it is healthy, its cool-down is over, or its
    /// `endpoints.json` changed since it failed (it restarted, possibly on other ports).
    func isLive(at now: ContinuousClock.Instant, fileStamp: EndpointsFileStamp?) -> Bool {
        guard let downUntil else { return true }
        return now >= downUntil || fileStamp != stampAtFailure
    }

    /// Starts (or extends) a cool-down: `coolDown × 2^(consecutive failures − 1)`, at most
    /// `maxCoolDown`.
    mutating func recordFailure(at now: ContinuousClock.Instant, fileStamp: EndpointsFileStamp?, options: RestaurantClientOptions) {
        consecutiveFailures += 1
        var coolDown = options.coolDown
        for _ in 1..<min(consecutiveFailures, 32) where coolDown < options.maxCoolDown {
            coolDown *= 2
        }
        downUntil = now + min(coolDown, options.maxCoolDown)
        failedAt = now
        stampAtFailure = fileStamp
    }

    /// The instance answered: it is healthy again.
    mutating func recordReply() {
        consecutiveFailures = 0
        downUntil = nil
        failedAt = nil
        stampAtFailure = nil
    }
}

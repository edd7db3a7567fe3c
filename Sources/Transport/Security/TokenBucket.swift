import Synchronization

/// A caller's rate cap on one instance: `rate` tokens a second, holding at most `rate` (the
/// burst); a request takes one or is refused. Shared by every endpoint thread of the instance,
/// hence its lock.
final class TokenBucket: Sendable {
    /// Tokens added per second, and the most it holds.
    let rate: Int
    private let state: Mutex<(tokens: Double, at: Duration)>

    /// A full bucket at `now` (``EndpointClock``).
    init(rate: Int, now: Duration) {
        self.rate = rate
        state = Mutex((Double(rate), now))
    }

    /// Takes a token at `now` if one is there.
    func take(now: Duration) -> Bool {
        state.withLock { state in
            let elapsed = max(0, Double((now - state.at) / .microseconds(1)) / 1_000_000)
            state.tokens = min(Double(rate), state.tokens + elapsed * Double(rate))
            state.at = max(state.at, now)
            guard state.tokens >= 1 else { return false }
            state.tokens -= 1
            return true
        }
    }
}

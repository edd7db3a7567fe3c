/// Polls `condition` every `interval` until it holds; throws ``WaitTimeout`` naming `what` once
/// `timeout` has passed without it. For a test that must wait for a condition, never a sleep.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(10), interval: Duration = .milliseconds(2), _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try await !condition() {
        guard clock.now < deadline else { throw WaitTimeout(what: what) }
        try await Task.sleep(for: interval)
    }
}

/// A condition ``waitUntil(_:timeout:interval:_:)`` waited for did not come.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String

    /// "timed out waiting until …".
    public var description: String { "timed out waiting until \(what)" }
}

import Synchronization

/// Whether use cases take requests, shared by every endpoint. While draining or shutting down,
/// every endpoint answers `unavailable` before the request has any effect. Draining can be
/// resumed; shutting down cannot.
public final class ServiceAvailability: Sendable {
    /// The service-wide state.
    public enum State: UInt8, Sendable, AtomicRepresentable {
        /// Serving.
        case available
        /// Refusing new requests until resumed (an operator's drain).
        case draining
        /// Refusing new requests for good: the service is stopping.
        case shuttingDown
    }

    private let current = Atomic<State>(.available)

    /// Starts available.
    public init() {}

    /// The current state.
    public var state: State { current.load(ordering: .acquiring) }

    /// Whether new requests are refused with `unavailable`.
    public var isRefusingRequests: Bool { state != .available }

    /// Refuse new requests until `resume()`; no effect while shutting down.
    public func drain() {
        _ = current.compareExchange(expected: .available, desired: .draining, ordering: .acquiringAndReleasing)
    }

    /// Take requests again after a drain; no effect while shutting down.
    public func resume() {
        _ = current.compareExchange(expected: .draining, desired: .available, ordering: .acquiringAndReleasing)
    }

    /// Refuse new requests for good, on every endpoint at once.
    public func beginShutdown() {
        current.store(.shuttingDown, ordering: .releasing)
    }
}
